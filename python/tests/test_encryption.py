"""Encrypted files through the Python package: the corpus's files read with
their documented keys, files written in every mode read back, key material
from a KMS (in the file or beside it) and its rotation, and the errors of
missing and wrong keys."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")

import parq
from conftest import CORPUS

FOOTER = b"0123456789012345"
KC1 = b"1234567890123450"
KC2 = b"1234567890123451"
KMS = {"kf": FOOTER.hex(), "kc1": KC1.hex(), "kc2": KC2.hex()}
CORPUS_KEYS = parq.Decryption(footer_key=FOOTER, column_keys={"double_field": KC1, "float_field": KC2})


def table():
    n = 3000
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "secret": pa.array([f"SECRET-{i:05d}" for i in range(n)]),
        "x": pa.array([i * 0.5 for i in range(n)], pa.float64()),
    })


def test_the_corpus_files_read_with_their_keys():
    first = None
    for name in ["encrypt_columns_and_footer", "encrypt_columns_and_footer_ctr",
                 "encrypt_columns_plaintext_footer", "uniform_encryption", "encrypt_columns_and_footer_aad"]:
        t = pa.table(parq.read_table(CORPUS / f"{name}.parquet.encrypted", decryption=CORPUS_KEYS))
        assert t.num_rows == 50
        assert t.column("int32_field").cast(pa.int32()).to_pylist() == list(range(50))
        assert t.column("double_field").to_pylist() == pytest.approx([i * 1.1111111 for i in range(50)])
        if first is None:
            first = t
        assert t.equals(first), name
    with_prefix = parq.Decryption(footer_key=FOOTER, column_keys={"double_field": KC1, "float_field": KC2},
                                  aad_prefix="tester")
    t = parq.read_table(CORPUS / "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                        decryption=with_prefix)
    assert pa.table(t).equals(first)


def test_external_key_material_of_parquet_java_reads_through_the_kms():
    t = pa.table(parq.read_table(CORPUS / "external_key_material_java.parquet.encrypted",
                                 decryption={"kms_config": KMS}))
    assert t.column("integers").to_pylist() == list(range(100))


def test_missing_and_wrong_keys_are_named():
    path = CORPUS / "encrypt_columns_and_footer.parquet.encrypted"
    with pytest.raises(parq.UnsupportedError, match="no keys were given"):
        parq.read_table(path)
    footer_only = parq.Decryption(footer_key=FOOTER)
    assert parq.read_table(path, columns=["int32_field"], decryption=footer_only).num_rows == 50
    with pytest.raises(NotImplementedError, match="double_field"):
        parq.read_table(path, columns=["double_field"], decryption=footer_only)
    with pytest.raises(parq.CorruptFileError, match="does not authenticate"):
        parq.read_table(path, decryption=parq.Decryption(footer_key=KC1))
    with pytest.raises(ValueError, match="16, 24 or 32 bytes"):
        parq.read_table(path, decryption=parq.Decryption(footer_key=b"short"))
    with pytest.raises(parq.InvalidArgumentError, match="unknown option"):
        parq.read_table(path, decryption={"footer": FOOTER})


@pytest.mark.parametrize("algorithm", ["AES_GCM_V1", "AES_GCM_CTR_V1"])
@pytest.mark.parametrize("plaintext_footer", [False, True])
@pytest.mark.parametrize("columns", [None, {"secret": KC1}])
def test_written_files_read_back_and_hide_their_secrets(tmp_path, algorithm, plaintext_footer, columns):
    t = table()
    path = tmp_path / "e.parquet"
    encryption = parq.Encryption(footer_key=FOOTER, column_keys=columns, plaintext_footer=plaintext_footer,
                                 algorithm=algorithm, aad_prefix="table-1", store_aad_prefix=False)
    parq.write_table(t, path, encryption=encryption, bloom_filter=["secret"], codec="uncompressed")
    assert b"SECRET-" not in path.read_bytes()
    keys = parq.Decryption(footer_key=FOOTER, column_keys=columns, aad_prefix="table-1")
    assert pa.table(parq.read_table(path, decryption=keys)).equals(t)
    assert pa.table(parq.read_table(path, decryption=keys, filter=[("secret", "=", "SECRET-00042")])).num_rows == 1
    with pytest.raises(ValueError, match="AAD prefix"):
        parq.read_table(path, decryption=parq.Decryption(footer_key=FOOTER, column_keys=columns))
    if plaintext_footer and columns:
        # A reader without keys reads the plaintext columns, as legacy readers do.
        assert parq.read_table(path, columns=["id"]).num_rows == t.num_rows
        with pytest.raises(parq.UnsupportedError):
            parq.read_table(path, columns=["secret"])


def test_kms_key_material_inside_and_beside_the_file_and_its_rotation(tmp_path):
    t = table()
    inside = tmp_path / "inside.parquet"
    parq.write_table(t, inside, encryption=parq.Encryption(footer_key="kf", column_keys={"secret": "kc1"},
                                                           kms_config=KMS))
    assert not list(tmp_path.glob("_KEY_MATERIAL_FOR_*"))
    assert pa.table(parq.read_table(inside, decryption={"kms_config": KMS})).equals(t)
    # The explicit keys are not the data keys: KMS files carry their own.
    with pytest.raises(parq.ParqError):
        parq.read_table(inside, decryption=parq.Decryption(footer_key=FOOTER, column_keys={"secret": KC1}))

    beside = tmp_path / "beside.parquet"
    with parq.ParquetWriter(beside, t.schema, encryption=parq.Encryption(
            footer_key="kf", column_keys={"secret": "kc1"}, kms_config=KMS, external_key_material=True,
            double_wrapping=False)) as w:
        w.write_table(t)
        # Key material appears with the file, not before.
        assert not (tmp_path / "_KEY_MATERIAL_FOR_beside.parquet.json").exists()
    assert (tmp_path / "_KEY_MATERIAL_FOR_beside.parquet.json").exists()
    assert pa.table(parq.read_table(beside, decryption={"kms_config": KMS})).equals(t)

    rotated = {"kf": b"abcdefghijklmnop".hex(), "kc1": b"ABCDEFGHIJKLMNOP".hex(), "kc2": KC2.hex()}
    parq.rotate_master_keys(beside, KMS, rotated)
    assert pa.table(parq.read_table(beside, decryption={"kms_config": rotated})).equals(t)
    with pytest.raises(parq.ParqError, match="kf|authenticate"):
        parq.read_table(beside, decryption={"kms_config": KMS})
    with pytest.raises(parq.InvalidArgumentError):
        parq.rotate_master_keys(inside, KMS, rotated)


def test_the_in_memory_kms_wraps_as_parquet_java():
    kms = parq.InMemoryKms(KMS)
    wrapped = kms.wrap_key(b"k" * 16, "kc1")
    assert kms.unwrap_key(wrapped, "kc1") == b"k" * 16
    with pytest.raises(parq.ParqError):
        kms.unwrap_key(wrapped, "kc2")
    with pytest.raises(parq.ParqError, match="nope"):
        kms.wrap_key(b"k" * 16, "nope")
