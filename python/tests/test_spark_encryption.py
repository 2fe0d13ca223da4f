"""Parquet modular encryption between parq and parquet-java (through Spark),
both ways: parquet-java's PropertiesDrivenCryptoFactory with its in-memory
KMS (InMemoryKMS, from parquet-hadoop's tests jar: see
conftest.parquet_hadoop_tests_jar) on one side, parq's `--kms-config` file
holding the same master keys on the other (crypto_interop.py).

Matrix (crypto_interop.matrix, 18 cases each way): AES_GCM_V1 and
AES_GCM_CTR_V1, encrypted and plaintext footers, per-column keys
(`parquet.encryption.column.keys`, a struct's and a list's leaves included)
and uniform encryption (`parquet.encryption.uniform.key`), key material inside
the file and in _KEY_MATERIAL_FOR_<file>.json beside it
(`parquet.encryption.key.material.store.internally=false`), single and double
wrapping; and two cases with 256-bit data keys
(`parquet.encryption.data.key.length.bits`).
- Spark writes, Spark reads back and parq reads the same rows: with the data
  keys unwrapped by the test (`--footer-key`, `--column-key`: parq's
  decryption alone), and through its KMS (`parq cat --kms-config`);
- parq writes (`parq rewrite --kms-config ... --footer-key kf ...`), Spark
  reads the same rows;
- an AAD prefix parq stores (--aad-prefix) is taken by parquet-java;
- a Spark table of several files, each with its external key material, read
  by parq as a folder;
- a wrong master key in parq's KMS makes parq fail on Spark's file;
- the pyarrow KMS client of test_encryption_interop.py and InMemoryKMS read
  each other's files (so that both interop files test one key wrapping).

The Hadoop settings go with each read and write as options (Spark puts a
source's options into the job's Hadoop configuration), so the shared session
of the other Spark tests is left as it was.
"""

from __future__ import annotations

import base64
import glob
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import crypto_interop as ci
from crypto_interop import kms_config, plain_source  # noqa: F401  (fixtures)

pytestmark = pytest.mark.spark

CASES = ci.matrix()

SPARK_DDL = "id INT, a STRING, b DOUBLE, c BIGINT, st STRUCT<x: INT, y: STRING>, tags ARRAY<STRING>"

BASE = {
    "parquet.crypto.factory.class": "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory",
    "parquet.encryption.kms.client.class": "org.apache.parquet.crypto.keytools.mocks.InMemoryKMS",
    "parquet.encryption.key.list": ", ".join(f"{k}:{base64.b64encode(v).decode()}" for k, v in ci.MASTER_KEYS.items()),
}


def write_options(case: ci.Case) -> dict:
    options = dict(BASE)
    options["parquet.encryption.algorithm"] = case.algorithm
    options["parquet.encryption.plaintext.footer"] = str(case.plaintext_footer).lower()
    options["parquet.encryption.double.wrapping"] = str(case.double_wrapping).lower()
    options["parquet.encryption.key.material.store.internally"] = str(not case.external).lower()
    options["parquet.encryption.data.key.length.bits"] = str(case.data_key_bits)
    if case.per_column:
        options["parquet.encryption.footer.key"] = "kf"
        options["parquet.encryption.column.keys"] = ";".join(
            f"{master}:{','.join(columns)}" for master, columns in ci.COLUMN_KEYS.items()
        )
    else:
        options["parquet.encryption.uniform.key"] = "kf"
    return options


@pytest.fixture(scope="module")
def kms_spark(spark):
    """The shared session, with InMemoryKMS on its class path: a missing jar
    fails the tests (never skips them)."""
    from conftest import parquet_hadoop_tests_jar

    try:
        jar = parquet_hadoop_tests_jar()
    except RuntimeError as e:
        pytest.fail(str(e))
    try:
        spark._jvm.java.lang.Class.forName(BASE["parquet.encryption.kms.client.class"])
    except Exception as e:  # py4j's error for a ClassNotFoundException
        pytest.fail(f"InMemoryKMS is not on the Spark session's class path ({jar}; the spark fixture adds it): {e}")
    return spark


def _spark_rows(spark, path: Path) -> list:
    rows = spark.read.options(**BASE).parquet(str(path)).collect()
    return sorted((r.asDict(recursive=True) for r in rows), key=lambda r: r["id"])


def _spark_write(spark, case: ci.Case, directory: Path) -> Path:
    data = [
        (r["id"], r["a"], r["b"], r["c"], None if r["st"] is None else (r["st"]["x"], r["st"]["y"]), r["tags"])
        for r in ci.rows()
    ]
    df = spark.createDataFrame(data, SPARK_DDL).coalesce(1)
    df.write.mode("overwrite").options(**write_options(case)).option("parquet.block.size", 4096).parquet(
        str(directory)
    )
    parts = glob.glob(str(directory / "part-*.parquet"))
    assert len(parts) == 1, parts
    return Path(parts[0])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_spark_writes_parq_reads(case, kms_spark, tmp_path, kms_config):
    part = _spark_write(kms_spark, case, tmp_path / "spark")
    ci.assert_encrypted_as(case, part, kms_config)
    expected = ci.rows()
    assert _spark_rows(kms_spark, part) == expected
    assert ci.parq_rows_explicit(part) == expected
    assert ci.parq_rows(part, kms_config) == expected


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_parq_writes_spark_reads(case, kms_spark, tmp_path, plain_source, kms_config):
    path = tmp_path / "parq.parquet"
    ci.parq_write(case, plain_source, path, kms_config)
    ci.assert_encrypted_as(case, path, kms_config)
    assert _spark_rows(kms_spark, path) == ci.rows()


def test_parq_aad_prefix_read_by_spark(kms_spark, tmp_path, plain_source, kms_config):
    """An AAD prefix parq stores in the file (--aad-prefix): parquet-java,
    given none, takes the stored one."""
    case = ci.Case("AES_GCM_CTR_V1", False, True, True, False)
    path = tmp_path / "prefixed.parquet"
    ci.parq_write(case, plain_source, path, kms_config, "--aad-prefix", "warehouse/table=1")
    assert _spark_rows(kms_spark, path) == ci.rows()


def test_wrong_master_key_fails_on_spark_file(kms_spark, tmp_path):
    case = ci.Case("AES_GCM_V1", True, True, True, True)
    part = _spark_write(kms_spark, case, tmp_path / "spark")
    wrong = bytes.fromhex("ffeeddccbbaa99887766554433221100")
    bad = ci.write_kms_config(tmp_path / "bad.json", {**ci.MASTER_KEYS, "kc2": wrong})
    proc = ci.run_parq("cat", part, "--kms-config", bad, "--columns", "id,b", check=False)
    assert proc.returncode != 0 and proc.stdout.strip() == "", proc.stdout[:300]
    assert "kc2" in proc.stderr, proc.stderr
    # The columns whose keys unwrap still read.
    assert ci.parq_rows(part, bad, "id,a") == [{"id": r["id"], "a": r["a"]} for r in ci.rows()]


@pytest.mark.parametrize("external", [False, True], ids=["internal", "external"])
def test_pyarrow_kms_client_matches_in_memory_kms(external, kms_spark, tmp_path):
    """pyarrow's files (through crypto_interop's KMS client) read in Spark, and
    Spark's in pyarrow: the wrapping both interop files rely on is
    parquet-java's."""
    import pyarrow.parquet.encryption as pe

    client = ci.pyarrow_kms_client_class()
    factory = pe.CryptoFactory(lambda config: client(config))
    kms = pe.KmsConnectionConfig(custom_kms_conf={k: v.hex() for k, v in ci.MASTER_KEYS.items()})
    config = pe.EncryptionConfiguration(
        footer_key="kf", column_keys=ci.COLUMN_KEYS, double_wrapping=True, internal_key_material=not external
    )
    path = tmp_path / "pyarrow.parquet"
    props = factory.file_encryption_properties(kms, config, parquet_file_path=str(path))
    pq.write_table(ci.arrow_table(), path, encryption_properties=props)
    assert _spark_rows(kms_spark, path) == ci.rows()

    case = ci.Case("AES_GCM_CTR_V1", False, True, external, False)
    part = _spark_write(kms_spark, case, tmp_path / "spark")
    props = factory.file_decryption_properties(kms, pe.DecryptionConfiguration(), parquet_file_path=str(part))
    got = sorted(pq.ParquetFile(str(part), decryption_properties=props).read().to_pylist(), key=lambda r: r["id"])
    assert got == ci.rows()


def test_spark_dataset_with_external_key_material_read_by_parq(kms_spark, tmp_path, kms_config):
    """A Spark table of several files, each with its own data keys in its own
    _KEY_MATERIAL_FOR_<part>.json: parq reads the folder through --kms-config
    (each file's key material found beside it; the key material files are not
    taken for data)."""
    case = ci.Case("AES_GCM_CTR_V1", False, True, True, True)
    data = [
        (r["id"], r["a"], r["b"], r["c"], None if r["st"] is None else (r["st"]["x"], r["st"]["y"]), r["tags"])
        for r in ci.rows()
    ]
    directory = tmp_path / "table"
    kms_spark.createDataFrame(data, SPARK_DDL).repartition(3).write.options(**write_options(case)).parquet(
        str(directory)
    )
    parts = sorted(directory.glob("part-*.parquet"))
    assert len(parts) == 3 and all(ci.key_material_file(p).exists() for p in parts), list(directory.iterdir())
    # Each file has data keys of its own.
    footer_keys = {json.loads(ci.key_material_file(p).read_text())["footerKey"] for p in parts}
    assert len(footer_keys) == 3
    assert ci.parq_rows(directory, kms_config) == ci.rows()
