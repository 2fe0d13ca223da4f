"""Shared fixtures of the Python package's tests: where the shared corpus is,
and a comparison of Arrow data that looks at values, not at the details in
which two correct readers may differ (nullability flags, field names of list
items, a dictionary or a large type against a plain one, the zone a UTC
instant is shown in)."""

from __future__ import annotations

import datetime
import decimal
import math
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PARQ_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "parquet-testing" / "data"


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist's loadgroup (python/run-tests.sh), one worker runs a
    test file whole, so a module's costly fixture (a Ray cluster, a killed
    writer's files) is made once; and the Spark files share one worker, so
    only one JVM starts for the session's Spark fixture."""
    for item in items:
        module = item.module.__name__
        group = "spark" if module.startswith("test_spark") else module
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def cities() -> Path:
    return REPO / "examples" / "cities.parquet"


def _norm(v):
    """A value in a form two readers agree on: instants in UTC, NaN equal to NaN."""
    if isinstance(v, float) and math.isnan(v):
        return ("NaN",)
    if isinstance(v, datetime.datetime) and v.tzinfo is not None:
        return ("instant", v.astimezone(datetime.timezone.utc).replace(tzinfo=None))
    if isinstance(v, decimal.Decimal):
        return ("NaN",) if v.is_nan() else v
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def _arrow_errors():
    import pyarrow as pa

    return (ValueError, OverflowError, pa.ArrowException)


def _storage_type(t):
    import pyarrow as pa

    if pa.types.is_timestamp(t) or pa.types.is_date64(t) or pa.types.is_time64(t) or pa.types.is_duration(t):
        return pa.int64()
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(_storage_type(t.value_type))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _storage_type(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(_storage_type(t.key_type), _storage_type(t.item_type))
    return t


def assert_same_rows(got, expected) -> None:
    """Two tables have the same rows, column names and values (see the module doc)."""
    import pyarrow as pa

    g, e = pa.table(got), pa.table(expected)
    assert g.column_names == e.column_names
    assert g.num_rows == e.num_rows
    for name in e.column_names:
        gc, ec = g.column(name), e.column(name)
        if gc.type != ec.type:
            gc, ec = _comparable(gc, ec)
        gv = [_norm(v) for v in _column_pylist(gc)]
        ev = [_norm(v) for v in _column_pylist(ec)]
        if gv != ev:
            bad = next(i for i, (a, b) in enumerate(zip(gv, ev)) if a != b)
            raise AssertionError(f"column {name}: row {bad}: {gv[bad]!r} != {ev[bad]!r} ({gc.type} vs {ec.type})")


def _column_pylist(c):
    try:
        return c.to_pylist()
    except _arrow_errors():
        # Values outside Python's datetime range: compare the stored integers.
        return c.cast(_storage_type(c.type)).to_pylist()


def _comparable(got, expected):
    """Both columns in one type where they differ only in representation."""
    import pyarrow as pa

    def plain(c):
        t = c.type
        if pa.types.is_dictionary(t):
            return c.cast(t.value_type)
        if pa.types.is_large_string(t) or pa.types.is_string_view(t):
            return c.cast(pa.string())
        if pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
            return c.cast(pa.binary())
        return c

    got, expected = plain(got), plain(expected)
    # A map whose values are absent: parq reads a map with null values,
    # pyarrow a list of its keys; the keys must agree.
    if pa.types.is_map(got.type) and pa.types.is_null(got.type.item_type) and pa.types.is_list(expected.type):
        got = pa.chunked_array(
            [pa.ListArray.from_arrays(ch.offsets, ch.keys, mask=ch.is_null()) for ch in got.chunks],
            type=pa.list_(got.type.key_type),
        )
    return got, expected


@pytest.fixture(scope="session")
def dist_dataset(tmp_path_factory) -> Path:
    """The distributed-engine tests' dataset (dist_data.py): a directory of files."""
    from dist_data import write_dataset

    directory = tmp_path_factory.mktemp("dist") / "lineitem"
    write_dataset(directory)
    return directory


def parquet_hadoop_tests_jar() -> Path:
    """parquet-hadoop's tests jar, which holds parquet-java's in-memory KMS
    (org.apache.parquet.crypto.keytools.mocks.InMemoryKMS) for
    test_spark_encryption.py, in the version of the parquet-hadoop jar that
    pyspark ships. Maven fetches it from Maven Central into its local
    repository (~/.m2, or PARQ_MAVEN_REPO) the first time; later runs find it
    there without Maven. Raises RuntimeError when it cannot be had."""
    import glob
    import subprocess

    import pyspark

    jars = glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars", "parquet-hadoop-[0-9]*.jar"))
    if len(jars) != 1:
        raise RuntimeError(f"pyspark's parquet-hadoop jar not found (or several): {jars}")
    version = os.path.basename(jars[0])[len("parquet-hadoop-") : -len(".jar")]
    repo = Path(os.environ.get("PARQ_MAVEN_REPO", Path.home() / ".m2" / "repository"))
    jar = repo / "org/apache/parquet/parquet-hadoop" / version / f"parquet-hadoop-{version}-tests.jar"
    if jar.is_file():
        return jar
    command = ["mvn", "-q", "-B", f"-Dmaven.repo.local={repo}", "dependency:get", "-Dtransitive=false",
               f"-Dartifact=org.apache.parquet:parquet-hadoop:{version}:jar:tests"]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(f"fetching {jar.name} with Maven ({' '.join(command)}): {e}") from e
    if proc.returncode != 0 or not jar.is_file():
        raise RuntimeError(f"Maven did not fetch {jar.name} ({' '.join(command)}):\n{proc.stdout}{proc.stderr}")
    return jar


@pytest.fixture(scope="session")
def spark():
    """One local Spark session (two cores) for every Spark test, with the parq data
    source registered. The session zone is not UTC on purpose: instants must not
    depend on it. Old dates and timestamps are written proleptic (CORRECTED), as
    Spark reads them back; test_spark_interop.py covers the LEGACY mode apart.
    parquet-hadoop's tests jar is on the driver's class path, for parquet-java's
    in-memory KMS (test_spark_encryption.py); without it the other Spark tests
    still run, and test_spark_encryption.py fails."""
    from pyspark.sql import SparkSession

    from parq.spark import ParqDataSource

    # Python workers run this interpreter, which has parq installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    builder = SparkSession.builder
    try:
        builder = builder.config("spark.driver.extraClassPath", str(parquet_hadoop_tests_jar()))
    except RuntimeError as e:  # test_spark_encryption.py fails with it
        import warnings

        warnings.warn(f"Spark without parquet-java's in-memory KMS: {e}")
    session = (
        builder.master("local[2]")
        .appName("parq-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "America/Los_Angeles")
        .config("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED")
        .config("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    session.dataSource.register(ParqDataSource)
    yield session
    session.stop()
