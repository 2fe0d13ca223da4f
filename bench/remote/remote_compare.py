#!/usr/bin/env python3
"""Remote reads side by side: a filtered projection of a ~1 GB Parquet file over HTTP
(nginx) and S3 (MinIO, SigV4), each behind a proxy that adds a round trip, read by parq,
pyarrow, Polars and DuckDB (httpfs) in one run. For each: the median wall time of
--repeat runs, and the requests and bytes that crossed the proxy (counted there, so the
same for every client), beside the bytes parq's plan needs (its ReadStats, from a local
read of the same file).

    .venv/bin/python bench/remote/remote_compare.py [--rtt-ms 20] [--repeat 3] [--file F]

Without --file it makes bench/compare/data/lineitem_x3_snappy.parquet (18 M rows, three
copies of lineitem_snappy.parquet, `parq rewrite`); run bench/compare's generate.mjs
first. Needs nginx (Debian) and MinIO (scripts/install-remote-servers.sh); installs
aiohttp (fsspec's HTTP, for pyarrow) and duckdb-extension-httpfs into the venv when
missing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARQ = ROOT / "build" / "parq"
PROXY = ROOT / "tests" / "io" / "latency_proxy.py"
KEY, SECRET = "parqbench", "parqbench-secret"

COLUMNS = ["l_orderkey", "l_partkey", "l_extendedprice", "l_shipdate"]
WHERE = "l_orderkey < 120000 AND l_quantity < 10"  # ~2% of each copy by the sort key, then a fifth


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, what: str, timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{what} did not start on port {port}")


def ensure_pip(module: str, package: str) -> None:
    try:
        __import__(module)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", package], check=True)


def make_file() -> Path:
    out = ROOT / "bench" / "compare" / "data" / "lineitem_x3_snappy.parquet"
    if out.exists():
        return out
    src = ROOT / "bench" / "compare" / "data" / "lineitem_snappy.parquet"
    if not src.exists():
        raise SystemExit(f"{src} is missing: run (cd bench/compare && npm ci && node generate.mjs) first")
    with tempfile.TemporaryDirectory() as d:
        for i in range(3):
            os.symlink(src, Path(d) / f"copy{i}.parquet")
        subprocess.run([str(PARQ), "rewrite", d, str(out), "--no-hive", "--row-group-rows", "1048576"], check=True)
    return out


class Servers:
    def __init__(self, file: Path, rtt_ms: float):
        file = file.resolve()
        self.dir = Path(tempfile.mkdtemp(prefix="parq-remote-bench-"))
        self.procs = []
        self.file = file
        # nginx serving the file's folder.
        self.nginx_port = free_port()
        conf = self.dir / "nginx.conf"
        (self.dir / "tmp").mkdir()
        conf.write_text(
            f"daemon off;\nmaster_process off;\nworker_processes 1;\npid {self.dir}/nginx.pid;\n"
            f"error_log {self.dir}/error.log;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {self.dir}/tmp;\n  proxy_temp_path {self.dir}/tmp;\n"
            f"  fastcgi_temp_path {self.dir}/tmp;\n  uwsgi_temp_path {self.dir}/tmp;\n  scgi_temp_path {self.dir}/tmp;\n"
            f"  keepalive_requests 100000;\n"
            f"  server {{\n    listen 127.0.0.1:{self.nginx_port};\n    root {file.parent};\n  }}\n}}\n"
        )
        nginx = "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else "nginx"
        self.spawn([nginx, "-e", str(self.dir / "error.log"), "-p", str(self.dir), "-c", str(conf)])
        wait_port(self.nginx_port, "nginx")
        # MinIO with the file uploaded.
        minio = Path(os.environ.get("PARQ_REMOTE_SERVERS_DIR", Path.home() / ".cache" / "parq" / "bin")) / "minio"
        if not minio.exists():
            raise SystemExit(f"no MinIO at {minio}: run scripts/install-remote-servers.sh")
        self.s3_port = free_port()
        env = dict(os.environ, MINIO_ROOT_USER=KEY, MINIO_ROOT_PASSWORD=SECRET, MINIO_BROWSER="off",
                   MINIO_UPDATE="off", MINIO_CI_CD="1", HOME=str(self.dir))
        self.spawn([str(minio), "server", str(self.dir / "data"), "--address", f"127.0.0.1:{self.s3_port}",
                    "--console-address", f"127.0.0.1:{free_port()}", "--quiet"], env=env)
        wait_port(self.s3_port, "MinIO")
        import pyarrow.fs as pafs

        s3 = pafs.S3FileSystem(access_key=KEY, secret_key=SECRET, endpoint_override=f"127.0.0.1:{self.s3_port}",
                               scheme="http", region="us-east-1", allow_bucket_creation=True)
        for _ in range(50):
            try:
                s3.create_dir("bench")
                break
            except OSError:
                time.sleep(0.2)
        pafs.copy_files(str(file), f"bench/{file.name}", destination_filesystem=s3)
        # The proxies that add the round trip and count, and the same without
        # the delay (what the proxy itself costs), by round trip.
        self.ports = {}
        for rtt in (rtt_ms, 0):
            http = self.proxy(self.nginx_port, rtt)
            s3 = self.proxy(self.s3_port, rtt)
            self.ports[rtt] = {"http": http, "s3": s3}

    def spawn(self, cmd, env=None, stdout=subprocess.DEVNULL):
        p = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=subprocess.DEVNULL)
        self.procs.append(p)
        return p

    def proxy(self, port: int, rtt_ms: float):
        stats = self.dir / f"proxy-{port}.json"
        p = self.spawn([sys.executable, str(PROXY), "--target-port", str(port), "--delay-ms", str(rtt_ms / 2),
                        "--stats-file", str(stats)], stdout=subprocess.PIPE)
        listen = int(p.stdout.readline())
        wait_port(listen, "the proxy")
        return listen, stats

    def close(self):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def counts(path: Path) -> dict:
    for _ in range(20):
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            time.sleep(0.05)
    return {"requests": 0, "bytes_down": 0}


class DuckDB:
    """DuckDB with its httpfs extension, in a venv of its own (the extension on PyPI
    follows an older DuckDB than the project's venv has), answering queries sent one a
    line on a pipe, so that a query's time is the query's alone."""

    VERSION = "1.5.5"

    def __init__(self, s3_port: int):
        venv = ROOT / "bench" / "remote" / ".duckdb-venv"
        py = venv / "bin" / "python"
        if not py.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(py), "-m", "pip", "install", "-q", f"duckdb=={self.VERSION}",
                            f"duckdb-extension-httpfs=={self.VERSION}"], check=True)
        script = (
            "import duckdb, glob, os, sys, duckdb_extension_httpfs as h\n"
            "ext = glob.glob(os.path.join(os.path.dirname(h.__file__), 'extensions', '*', 'httpfs.duckdb_extension'))[0]\n"
            "con = duckdb.connect(config={'allow_unsigned_extensions': 'true'})\n"
            "con.load_extension(ext)\n"
            f"con.execute(\"CREATE SECRET (TYPE S3, KEY_ID '{KEY}', SECRET '{SECRET}', REGION 'us-east-1', "
            f"ENDPOINT '127.0.0.1:{s3_port}', URL_STYLE 'path', USE_SSL false)\")\n"
            "con.execute('SET threads = 2')\n"
            # Every run reads from the server, as every other client's does.
            "con.execute('SET enable_external_file_cache = false')\n"
            "con.execute('SET enable_http_metadata_cache = false')\n"
            "print('ready', flush=True)\n"
            "for line in sys.stdin:\n"
            "    try:\n"
            "        print(con.execute(line).fetchone()[0], flush=True)\n"
            "    except Exception as e:\n"
            "        print('error: ' + str(e).splitlines()[0][:80], flush=True)\n"
        )
        self.proc = subprocess.Popen([str(py), "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        ready = self.proc.stdout.readline().strip()
        if ready != "ready":
            raise RuntimeError(f"DuckDB did not start: {ready}")

    def query(self, sql: str):
        self.proc.stdin.write(sql.replace("\n", " ") + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline().strip()
        if out.startswith("error"):
            raise RuntimeError(out)
        return int(out)


def engines(servers: Servers, name: str, rtt: float):
    """(engine, transport, zero-argument reader) for every client, through the proxies of
    this round trip."""
    import polars as pl
    import pyarrow.dataset as pads
    import pyarrow.fs as pafs
    import pyarrow.parquet as pq

    import parq

    http_url = f"http://127.0.0.1:{servers.ports[rtt]['http'][0]}/{name}"
    s3_url = f"s3://bench/{name}"
    s3_port = servers.ports[rtt]["s3"][0]
    endpoint = f"http://127.0.0.1:{s3_port}"
    os.environ.update(AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_REGION="us-east-1")
    lo, hi = 120000, 10

    def run_parq(url):
        def go():
            os.environ["AWS_ENDPOINT_URL"] = endpoint  # read at each open
            return parq.read_table(url, columns=COLUMNS, filter=WHERE).num_rows
        return go

    import pyarrow.compute as pc

    import decimal

    import pyarrow as pa

    # l_quantity is DECIMAL(15,2): compared with a decimal of its type.
    expr = (pc.field("l_orderkey") < lo) & (pc.field("l_quantity") < pa.scalar(decimal.Decimal(hi), pa.decimal128(15, 2)))

    def run_pyarrow_http():
        from fsspec.implementations.http import HTTPFileSystem

        fs = pafs.PyFileSystem(pafs.FSSpecHandler(HTTPFileSystem()))
        ds = pads.dataset(http_url, filesystem=fs, format="parquet")
        return ds.to_table(columns=COLUMNS, filter=expr).num_rows

    def run_pyarrow_s3():
        fs = pafs.S3FileSystem(access_key=KEY, secret_key=SECRET, endpoint_override=endpoint.removeprefix("http://"),
                               scheme="http", region="us-east-1")
        return pq.read_table(f"bench/{name}", filesystem=fs, columns=COLUMNS, filters=expr).num_rows

    storage = {"aws_access_key_id": KEY, "aws_secret_access_key": SECRET, "aws_region": "us-east-1",
               "aws_endpoint_url": endpoint, "aws_allow_http": "true"}

    def run_polars(url, options):
        def go():
            return (pl.scan_parquet(url, storage_options=options)
                    .filter((pl.col("l_orderkey") < lo) & (pl.col("l_quantity") < hi))
                    .select(COLUMNS).collect().height)
        return go

    duck = DuckDB(s3_port)

    def run_duckdb(url):
        # any_value of every column, so that none is optimized away.
        sql = (f"SELECT count(*), any_value(COLUMNS(*)) FROM (SELECT {', '.join(COLUMNS)} "
               f"FROM read_parquet('{url}') WHERE l_orderkey < {lo} AND l_quantity < {hi})")
        return lambda: duck.query(sql)

    return [
        ("parq", "http", run_parq(http_url)),
        ("parq", "s3", run_parq(s3_url)),
        ("pyarrow", "http", run_pyarrow_http),
        ("pyarrow", "s3", run_pyarrow_s3),
        ("polars", "http", run_polars(http_url, None)),
        ("polars", "s3", run_polars(s3_url, storage)),
        ("duckdb", "http", run_duckdb(http_url)),
        ("duckdb", "s3", run_duckdb(s3_url)),
    ]


def plan_bytes(file: Path) -> int:
    out = subprocess.run([str(PARQ), "cat", str(file), "--columns", ",".join(COLUMNS), "--where", WHERE,
                          "--explain"], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("io: "):
            return int(line.split()[1])
    raise SystemExit("no io line in --explain")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtt-ms", type=float, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", type=Path)
    args = ap.parse_args()
    ensure_pip("aiohttp", "aiohttp")
    file = args.file or make_file()
    need = plan_bytes(file)
    servers = Servers(file, args.rtt_ms)
    try:
        rows = []
        delayed = engines(servers, file.name, args.rtt_ms)
        direct = engines(servers, file.name, 0)
        for (engine, transport, run), (_, _, run0) in zip(delayed, direct):
            stats = servers.ports[args.rtt_ms][transport][1]
            times, times0, reqs, down, result = [], [], [], [], None
            # Each repeat runs through the delaying proxy and through the one that
            # does not, one after the other, so that both see the same machine.
            for _ in range(args.repeat):
                before = counts(stats)
                t0 = time.perf_counter()
                try:
                    result = run()
                    times.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    run0()
                    times0.append(time.perf_counter() - t0)
                except Exception as e:  # a client that cannot do it is reported, not fatal
                    result = f"error: {str(e).splitlines()[0][:80]}"
                    times = []
                    break
                time.sleep(0.3)  # the proxy writes its counts every 50 ms
                after = counts(stats)
                reqs.append(after["requests"] - before["requests"])
                down.append(after["bytes_down"] - before["bytes_down"])
            rows.append((engine, transport, times, times0, reqs, down, result))
        print(f"file: {file.name} ({file.stat().st_size / 1e6:.0f} MB), round trip {args.rtt_ms:g} ms, "
              f"columns {','.join(COLUMNS)}, where {WHERE}; parq's plan reads {need / 1e6:.1f} MB locally")
        print("| engine | transport | rows | median s | s without the delay | round trips added | requests "
              "| MB received | x plan bytes |")
        print("|---|---|---|---|---|---|---|---|---|")
        for engine, transport, times, times0, reqs, down, result in rows:
            if not times:
                print(f"| {engine} | {transport} | {result} | | | | | | |")
                continue
            mb = statistics.median(down) / 1e6
            t, t0 = statistics.median(times), statistics.median(times0)
            added = (t - t0) / (args.rtt_ms / 1000)
            print(f"| {engine} | {transport} | {result} | {t:.2f} | {t0:.2f} | {added:.1f} | "
                  f"{int(statistics.median(reqs))} | {mb:.1f} | {statistics.median(down) / need:.2f} |")
    finally:
        servers.close()


if __name__ == "__main__":
    main()
