"""Parquet modular encryption between parq and pyarrow, both ways, through
key material (PKMT1) and an in-memory KMS on each side holding the same
master keys (crypto_interop.py): pyarrow's CryptoFactory with a KmsClient
wrapping as parquet-java's InMemoryKMS, parq's `--kms-config` file.

Matrix (crypto_interop.matrix, 18 cases each way): AES_GCM_V1 and
AES_GCM_CTR_V1, encrypted and plaintext footers, per-column keys (with a
footer key) and uniform encryption, key material inside the file and in
_KEY_MATERIAL_FOR_<file>.json beside it, single and double wrapping; and two
cases with 256-bit data keys.
- pyarrow writes, parq reads the same rows: with the data keys unwrapped by the
  test (`--footer-key`, `--column-key`: parq's decryption alone), and through
  its KMS (`parq cat --kms-config`: parq's key material handling);
- parq writes (`parq rewrite --kms-config ... --footer-key kf ...`), pyarrow
  reads the same rows;
- pyarrow's CryptoFactory ignores plaintext_footer with uniform encryption
  (Arrow C++ sets it on per-column encryption only): those files get an
  encrypted footer, which the test asserts rather than hides;
- `parq convert` encrypts too, an AAD prefix parq stores is taken by pyarrow,
  and `parq rewrite` re-encrypts a pyarrow file under other keys
  (--in-kms-config) for pyarrow to read;
- a wrong master key makes parq fail with an error saying so, and print no rows.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
import pytest

import crypto_interop as ci
from crypto_interop import kms_config, plain_source  # noqa: F401  (fixtures)

CASES = ci.matrix()


@pytest.fixture(scope="module")
def kms():
    return pe.KmsConnectionConfig(custom_kms_conf={k: v.hex() for k, v in ci.MASTER_KEYS.items()})


@pytest.fixture(scope="module")
def crypto_factory():
    client = ci.pyarrow_kms_client_class()
    return pe.CryptoFactory(lambda config: client(config))


def _encryption_config(case: ci.Case):
    kwargs = dict(
        footer_key="kf",
        encryption_algorithm=case.algorithm,
        plaintext_footer=case.plaintext_footer,
        double_wrapping=case.double_wrapping,
        internal_key_material=not case.external,
        data_key_length_bits=case.data_key_bits,
    )
    if case.per_column:
        kwargs["column_keys"] = ci.COLUMN_KEYS
    else:
        kwargs["uniform_encryption"] = True
    return pe.EncryptionConfiguration(**{k: v for k, v in kwargs.items() if v is not None})


def _pyarrow_write(case, path, crypto_factory, kms):
    props = crypto_factory.file_encryption_properties(kms, _encryption_config(case), parquet_file_path=str(path))
    pq.write_table(ci.arrow_table(), path, encryption_properties=props, row_group_size=64)


def _pyarrow_read(path, crypto_factory, kms):
    props = crypto_factory.file_decryption_properties(kms, pe.DecryptionConfiguration(), parquet_file_path=str(path))
    table = pq.ParquetFile(str(path), decryption_properties=props).read()
    return sorted(table.to_pylist(), key=lambda r: r["id"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_pyarrow_writes_parq_reads(case, tmp_path, crypto_factory, kms, kms_config):
    path = tmp_path / "pyarrow.parquet"
    _pyarrow_write(case, path, crypto_factory, kms)
    # pyarrow reads its own file back: the KMS client is consistent.
    assert _pyarrow_read(path, crypto_factory, kms) == ci.rows()
    # pyarrow's CryptoFactory applies plaintext_footer to per-column
    # encryption only: its uniformly encrypted files have encrypted footers.
    written = case if case.per_column else dataclasses.replace(case, plaintext_footer=False)
    ci.assert_encrypted_as(written, path, kms_config)
    # parq's decryption with the data keys unwrapped here, then parq's own
    # key management (PKMT1 through --kms-config).
    assert ci.parq_rows_explicit(path) == ci.rows()
    assert ci.parq_rows(path, kms_config) == ci.rows()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_parq_writes_pyarrow_reads(case, tmp_path, plain_source, crypto_factory, kms, kms_config):
    path = tmp_path / "parq.parquet"
    ci.parq_write(case, plain_source, path, kms_config)
    ci.assert_encrypted_as(case, path, kms_config)
    assert _pyarrow_read(path, crypto_factory, kms) == ci.rows()
    # parq reads its own file back too.
    assert ci.parq_rows(path, kms_config) == ci.rows()


def test_parq_aad_prefix_read_by_pyarrow(tmp_path, plain_source, crypto_factory, kms, kms_config):
    """An AAD prefix parq stores in the file (--aad-prefix): pyarrow, given
    none, takes the stored one; without it the file's modules would not
    authenticate."""
    case = ci.Case("AES_GCM_V1", True, True, False, True)
    path = tmp_path / "prefixed.parquet"
    ci.parq_write(case, plain_source, path, kms_config, "--aad-prefix", "warehouse/table=1")
    assert b"warehouse/table=1" in path.read_bytes()[-4096:]
    assert _pyarrow_read(path, crypto_factory, kms) == ci.rows()


def test_kms_client_wraps_as_parquet_java():
    """The wrapping format itself: nonce | ciphertext | tag, AAD the master
    key id; a wrong id (AAD) or master key does not unwrap."""
    from cryptography.exceptions import InvalidTag

    key = bytes(range(16))
    wrapped = ci.wrap(key, ci.MASTER_KEYS["kc1"], "kc1")
    import base64

    assert len(base64.b64decode(wrapped)) == 12 + 16 + 16
    assert ci.unwrap(wrapped, ci.MASTER_KEYS["kc1"], "kc1") == key
    with pytest.raises(InvalidTag):
        ci.unwrap(wrapped, ci.MASTER_KEYS["kc1"], "kc2")
    with pytest.raises(InvalidTag):
        ci.unwrap(wrapped, ci.MASTER_KEYS["kc2"], "kc1")


WRONG = bytes.fromhex("ffeeddccbbaa99887766554433221100")


@pytest.mark.parametrize(
    "case",
    [ci.Case("AES_GCM_V1", False, True, False, True), ci.Case("AES_GCM_CTR_V1", True, True, True, False)],
    ids=lambda c: c.id,
)
@pytest.mark.parametrize("wrong_key", ["kf", "kc1"])
def test_wrong_master_key_fails_clearly(case, wrong_key, tmp_path, crypto_factory, kms):
    """A KMS whose master key differs from the writer's: parq exits with an
    error naming the unwrapping failure, never prints rows."""
    path = tmp_path / "pyarrow.parquet"
    _pyarrow_write(case, path, crypto_factory, kms)
    bad = ci.write_kms_config(tmp_path / "bad.json", {**ci.MASTER_KEYS, wrong_key: WRONG})
    # With a plaintext footer and only kc1 wrong, the columns under kc2 and the
    # plaintext ones still read; those under kc1 must not.
    columns = "a" if wrong_key == "kc1" else "id,a,b"
    proc = ci.run_parq("cat", path, "--kms-config", bad, "--columns", columns, check=False)
    assert proc.returncode != 0, proc.stdout[:300]
    assert proc.stdout.strip() == ""
    message = proc.stderr.lower()
    assert wrong_key in proc.stderr and ("authenticat" in message or "unwrap" in message), proc.stderr
    if wrong_key == "kc1" and case.plaintext_footer:
        good = ci.parq_rows(path, bad, "id,b")
        assert good == [{"id": r["id"], "b": r["b"]} for r in ci.rows()]


def test_parq_convert_encrypts_for_pyarrow(tmp_path, crypto_factory, kms, kms_config):
    """`parq convert` encrypts its output as `parq rewrite` does (JSON Lines in,
    per-column keys, CTR, external key material)."""
    source = tmp_path / "rows.jsonl"
    flat = [{"id": r["id"], "a": r["a"], "b": r["b"]} for r in ci.rows()]
    source.write_text("".join(json.dumps(r) + "\n" for r in flat))
    path = tmp_path / "converted.parquet"
    ci.run_parq(
        "convert", source, path, "--kms-config", kms_config, "--footer-key", "kf", "--column-key", "a=kc1",
        "--column-key", "b=kc2", "--encryption-algorithm", "AES_GCM_CTR_V1", "--external-key-material",
    )
    assert path.read_bytes()[-4:] == b"PARE" and ci.key_material_file(path).exists()
    assert _pyarrow_read(path, crypto_factory, kms) == flat


def test_parq_rewrite_reencrypts_pyarrow_file(tmp_path, crypto_factory, kms, kms_config):
    """A pyarrow file read through --in-kms-config and written again under
    other master keys and another layout (uniform, plaintext footer, CTR):
    pyarrow reads the result, and its key material names the new master key."""
    source = tmp_path / "pyarrow.parquet"
    _pyarrow_write(ci.Case("AES_GCM_V1", False, True, True, True), source, crypto_factory, kms)
    path = tmp_path / "rewritten.parquet"
    ci.run_parq(
        "rewrite", source, path, "--in-kms-config", kms_config, "--kms-config", kms_config, "--footer-key", "kc2",
        "--plaintext-footer", "--encryption-algorithm", "AES_GCM_CTR_V1", "--external-key-material",
    )
    assert path.read_bytes()[-4:] == b"PAR1"
    material = [json.loads(v) for v in json.loads(ci.key_material_file(path).read_text()).values()]
    assert {m["masterKeyID"] for m in material} == {"kc2"}
    assert _pyarrow_read(path, crypto_factory, kms) == ci.rows()
    # Without keys, parq cannot read it (every column is encrypted).
    assert ci.run_parq("cat", path, check=False).returncode != 0
