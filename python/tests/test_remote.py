"""Reading URLs from Python: files and hive datasets in a real S3 server (MinIO, which
checks SigV4 signatures; scripts/install-remote-servers.sh builds it), configured by
storage_options alone (the environment and AWS files cleared), and those options' errors."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parq

KEY, SECRET = "parqpython", "parqpython-secret"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _minio_binary() -> Path:
    folder = os.environ.get("PARQ_REMOTE_SERVERS_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "parq", "bin")
    binary = Path(folder) / "minio"
    if not binary.exists():
        raise RuntimeError(f"no MinIO at {binary}: run scripts/install-remote-servers.sh "
                           "(scripts/test.sh does)")
    return binary


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """A MinIO server on loopback with bucket 'data' holding one file and a hive
    dataset; yields its endpoint and the local copies."""
    work = tmp_path_factory.mktemp("minio")
    port = _free_port()
    env = dict(os.environ, MINIO_ROOT_USER=KEY, MINIO_ROOT_PASSWORD=SECRET, MINIO_BROWSER="off",
               MINIO_UPDATE="off", MINIO_CI_CD="1", HOME=str(work))
    proc = subprocess.Popen([str(_minio_binary()), "server", str(work / "data"), "--address", f"127.0.0.1:{port}",
                             "--console-address", f"127.0.0.1:{_free_port()}", "--quiet"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import pyarrow.fs as pafs

        fs = pafs.S3FileSystem(access_key=KEY, secret_key=SECRET, endpoint_override=f"127.0.0.1:{port}",
                               scheme="http", region="us-east-1", allow_bucket_creation=True)
        for _ in range(150):
            try:
                fs.create_dir("data")
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("MinIO did not start")
        local = work / "local"
        local.mkdir()
        n = 3000
        table = pa.table({
            "id": pa.array(range(n), pa.int64()),
            "name": pa.array([f"n{i % 17}" for i in range(n)], pa.string()),
            "score": pa.array([i / 4 for i in range(n)], pa.float64()),
        })
        pq.write_table(table, local / "one.parquet", row_group_size=500)
        fs.create_dir("data/ds")
        parq.write_dataset(table.append_column("year", pa.array([2020 + i % 2 for i in range(n)], pa.int64())),
                           local / "ds", partition_by=["year"])
        for path in sorted(local.rglob("*.parquet")):
            key = "data/" + path.relative_to(local).as_posix()
            fs.create_dir(os.path.dirname(key))
            pafs.copy_files(str(path), key, destination_filesystem=fs)
        yield {"endpoint": f"http://127.0.0.1:{port}", "local": local, "table": table}
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def no_aws_environment(monkeypatch, tmp_path):
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))


def options(s3, **more):
    return {"endpoint": s3["endpoint"], "access_key_id": KEY, "secret_access_key": SECRET, "region": "us-east-1",
            **more}


def test_a_file_reads_from_s3_with_storage_options_alone(s3, no_aws_environment):
    got = parq.read_table("s3://data/one.parquet", columns=["id", "name"], filter="id >= 2990",
                          storage_options=options(s3))
    assert pa.table(got).to_pylist() == [{"id": i, "name": f"n{i % 17}"} for i in range(2990, 3000)]
    # Polars' names for the same settings.
    polars_names = {"aws_endpoint_url": s3["endpoint"], "aws_access_key_id": KEY, "aws_secret_access_key": SECRET,
                    "aws_region": "us-east-1", "aws_allow_http": "true"}
    assert parq.read_metadata("s3://data/one.parquet", storage_options=polars_names).num_rows == 3000
    with parq.ParquetFile("s3://data/one.parquet", storage_options=options(s3, max_concurrent_requests=2)) as f:
        assert f.num_row_groups == 6
        assert pa.table(f.read(columns=["score"])).column(0).to_pylist() == s3["table"].column("score").to_pylist()
    reader = parq.iter_batches("s3://data/one.parquet", storage_options=options(s3), batch_size=1000)
    assert pa.RecordBatchReader.from_stream(reader).read_all().num_rows == 3000


def test_a_hive_dataset_reads_from_s3_with_declared_partition_types(s3, no_aws_environment):
    ds = parq.dataset("s3://data/ds/", storage_options=options(s3), partition_types={"year": "string"})
    assert ds.partition_columns == ["year"]
    assert "optional binary year (STRING);" in ds.schema
    assert ds.count_rows(filter="year = '2021'") == 1500
    got = parq.read_table("s3://data/ds/", columns=["id", "year"], filter="id < 4", storage_options=options(s3),
                          partition_types={"year": "int32"})
    assert pa.table(got).schema.field("year").type == pa.int32()
    assert sorted(pa.table(got).to_pylist(), key=lambda r: r["id"]) == [{"id": i, "year": 2020 + i % 2} for i in range(4)]
    with pytest.raises(parq.InvalidArgumentError, match="partition_types apply to datasets"):
        parq.read_table("s3://data/one.parquet", storage_options=options(s3), partition_types={"year": "int32"})


def test_wrong_credentials_and_missing_objects_name_what_failed(s3, no_aws_environment):
    with pytest.raises(parq.ParqError, match="403|SignatureDoesNotMatch|InvalidAccessKeyId"):
        parq.read_table("s3://data/one.parquet", storage_options=options(s3, secret_access_key="wrong"))
    with pytest.raises(parq.ParqError, match="404|NoSuchKey|not found|missing.parquet"):
        parq.read_table("s3://data/missing.parquet", storage_options=options(s3))


@pytest.mark.parametrize(
    "storage_options, message",
    [
        ({"endpoint_urll": "http://x"}, "unknown option 'endpoint_urll'"),
        ({"max_retries": "3"}, "max_retries is an integer"),
        ({"max_retries": True}, "max_retries is an integer"),
        ({"verify_tls": "maybe"}, "verify_tls is true or false"),
        ({"region": 5}, "region is a string"),
        ({"max_request_bytes": -1}, "max_request_bytes is a byte count"),
        ({"connect_timeout_ms": 1 << 40}, "connect_timeout_ms is an integer that fits in 32 bits"),
        ({5: "x"}, "keys are strings"),
        (["endpoint"], "storage_options is a dict"),
    ],
)
def test_storage_options_errors_name_the_option(storage_options, message):
    with pytest.raises(parq.InvalidArgumentError, match=message):
        parq.read_table("s3://data/one.parquet", storage_options=storage_options)


def test_storage_options_do_not_apply_to_data_in_memory(tmp_path):
    pq.write_table(pa.table({"a": [1]}), tmp_path / "f.parquet")
    with pytest.raises(parq.InvalidArgumentError, match="storage_options apply to URLs"):
        parq.ParquetFile((tmp_path / "f.parquet").read_bytes(), storage_options={"region": "x"})


def test_partition_types_that_do_not_parse_are_errors(tmp_path):
    parq.write_dataset(pa.table({"id": [1, 2], "k": ["a", "b"]}), tmp_path / "ds", partition_by=["k"])
    with pytest.raises(parq.InvalidArgumentError, match="'int33' is not a column type"):
        parq.dataset(tmp_path / "ds", partition_types={"k": "int33"})
    with pytest.raises(parq.ParqError, match="not of the column's type"):
        parq.dataset(tmp_path / "ds", partition_types={"k": "int32"})
    with pytest.raises(parq.InvalidArgumentError, match="partition_types maps keys to type texts"):
        parq.dataset(tmp_path / "ds", partition_types={"k": 5})
    ds = parq.dataset(tmp_path / "ds", partition_types={"k": "binary"})
    assert sorted(pa.table(ds.to_table()).column("k").to_pylist()) == [b"a", b"b"]
