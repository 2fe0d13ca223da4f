#!/usr/bin/env python3
"""A fault injector for the remote input tests: serves one file over HTTP
with single byte ranges (Range: bytes=a-b, bytes=a-, bytes=-n), and fails
the first --fail-first requests in the way --mode says:

  status  answer --status (503 by default) with an S3-like XML error body
  reset   send the headers and half the body, then close the connection
  stall   send the headers, then nothing for --stall-seconds
  norange (not a failure) ignore Range and answer 200 with the whole file

Prints the port it listens on (127.0.0.1, chosen by the system) on its first
line of stdout. --skip-first K lets the first K requests through before
the failures begin; --retry-after V sends `Retry-After: V` with each
failing status. Not a server under test: the real HTTP and S3 coverage is
against nginx and MinIO; this one makes failures happen on cue.
"""
import argparse
import http.server
import os
import re
import socketserver
import sys
import threading
import time

args = None
lock = threading.Lock()
served = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        global served
        with lock:
            n = served
            served += 1
        failing = args.skip_first <= n < args.skip_first + args.fail_first
        data = open(args.file, "rb").read()
        size = len(data)
        if failing and args.mode == "status":
            body = b"<?xml version='1.0'?><Error><Code>SlowDown</Code><Message>injected failure</Message></Error>"
            self.send_response(args.status)
            if args.retry_after:
                self.send_header("Retry-After", args.retry_after)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        rng = self.headers.get("Range")
        first, last, status = 0, size - 1, 200
        if rng and args.mode != "norange":
            m = re.fullmatch(r"bytes=(\d*)-(\d*)", rng.strip())
            if not m:
                self.send_error(416)
                return
            a, b = m.group(1), m.group(2)
            if a == "":
                first, last = max(0, size - int(b)), size - 1
            else:
                first = int(a)
                last = min(int(b), size - 1) if b else size - 1
            status = 206
        body = data[first:last + 1]
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", '"v1"')
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, size))
        self.end_headers()
        if failing and args.mode == "reset":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if failing and args.mode == "stall":
            self.wfile.flush()
            time.sleep(args.stall_seconds)
            self.close_connection = True
            return
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--file", required=True)
    p.add_argument("--mode", default="status", choices=["status", "reset", "stall", "norange"])
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--skip-first", type=int, default=0)
    p.add_argument("--status", type=int, default=503)
    p.add_argument("--stall-seconds", type=float, default=30)
    p.add_argument("--retry-after", default="")
    args = p.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
