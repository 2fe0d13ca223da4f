#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that delays every byte by --delay-ms in each
direction (a round trip of twice that), for measuring the remote inputs
under latency: this machine's kernel has no netem, so `tc qdisc ... netem
delay` inside `unshare -n` is not an option. Bandwidth is not limited;
order within a connection is kept. Prints its port on the first line.

    latency_proxy.py --target-port 8080 --delay-ms 10 [--stats-file F]

With --stats-file, it also counts what passes (HTTP request lines sent to
the server, bytes each way) and writes them to F as JSON every 50 ms, for
benchmarks that compare clients' requests and bytes on the wire. With
--log-file, it appends one line per request (monotonic seconds when it
arrived, the connection's number, the request line and its Range header),
to see which requests wait for which.
"""
import argparse
import asyncio
import json
import os
import re
import time

COUNTS = {"requests": 0, "bytes_up": 0, "bytes_down": 0}
REQUEST_LINE = re.compile(rb"(?:GET|HEAD|PUT|POST|DELETE) \S+ HTTP/1\.[01]\r\n")
RANGE = re.compile(rb"\r\nRange: *([^\r]*)", re.IGNORECASE)
LOG = None


async def pump(reader, writer, delay, upstream=False, conn=0):
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                try:
                    writer.close()
                except Exception:
                    pass
                return
            writer.write(data)

    task = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(1 << 16)
            if not data:
                break
            if upstream:
                COUNTS["bytes_up"] += len(data)
                COUNTS["requests"] += len(REQUEST_LINE.findall(data))
                if LOG:
                    for m in REQUEST_LINE.finditer(data):
                        r = RANGE.search(data, m.end())
                        rng = r.group(1).decode(errors="replace") if r else "-"
                        line = m.group(0).strip().decode(errors="replace")
                        LOG.write(f"{time.monotonic():.4f} {conn} {line} {rng}\n")
                        LOG.flush()
            else:
                COUNTS["bytes_down"] += len(data)
            queue.put_nowait((time.monotonic() + delay, data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((time.monotonic() + delay, None))
    await task


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--target-port", type=int, required=True)
    p.add_argument("--delay-ms", type=float, default=10)
    p.add_argument("--stats-file")
    p.add_argument("--log-file")
    args = p.parse_args()
    global LOG
    if args.log_file:
        LOG = open(args.log_file, "a")
    connections = 0
    delay = args.delay_ms / 1000

    async def write_stats():
        while True:
            tmp = args.stats_file + ".tmp"
            with open(tmp, "w") as f:
                json.dump(COUNTS, f)
            os.replace(tmp, args.stats_file)
            await asyncio.sleep(0.05)

    async def handle(client_reader, client_writer):
        nonlocal connections
        connections += 1
        conn = connections
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", args.target_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pump(client_reader, server_writer, delay, upstream=True, conn=conn), pump(server_reader, client_writer, delay)
        )

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    if args.stats_file:
        asyncio.create_task(write_stats())
    async with server:
        await server.serve_forever()


asyncio.run(main())
