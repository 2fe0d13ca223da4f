"""What the encryption interop tests share (test_encryption_interop.py with
pyarrow, test_spark_encryption.py with parquet-java through Spark): the master
keys of an in-memory KMS, the rows every writer writes, the cases of the
matrix, the `parq` tool's options for each case, and a pyarrow KMS client that
wraps keys exactly as parquet-java's InMemoryKMS does.

Key wrapping, as parquet-java's InMemoryKMS (KeyToolkit.encryptKeyLocally)
and parq's InMemoryKms do it: AES-GCM under the master key, the master key's
id (UTF-8) as the AAD, stored as base64(nonce(12) | ciphertext | tag(16)). A
key wrapped by one of the three unwraps in the others, so each writer's files
carry key material the other readers can use with the same master keys.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Optional

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

REPO = Path(__file__).resolve().parents[2]

# Master keys (16 bytes: AES-128, as in parquet-java's examples).
MASTER_KEYS: Dict[str, bytes] = {
    "kf": bytes.fromhex("000102030405060708090a0b0c0d0e0f"),
    "kc1": bytes.fromhex("101112131415161718191a1b1c1d1e1f"),
    "kc2": bytes.fromhex("202122232425262728292a2b2c2d2e2f"),
}

# Per-column keys: kc1 for a top-level column and a struct's leaf, kc2 for a
# double and a list's leaf; id and c stay plaintext.
COLUMN_KEYS: Dict[str, List[str]] = {"kc1": ["a", "st.x"], "kc2": ["b", "tags.list.element"]}
ENCRYPTED_COLUMNS = [c for cols in COLUMN_KEYS.values() for c in cols]

ROWS = 200


def rows() -> List[dict]:
    """The rows each writer writes, in parq cat's JSON form (nulls included)."""
    out = []
    for i in range(ROWS):
        out.append(
            {
                "id": i,
                "a": None if i % 11 == 3 else f"name-{i}-" + "x" * (i % 7),
                "b": None if i % 13 == 5 else i * 0.25 - 17.5,
                "c": None if i % 5 == 0 else i * 1_000_000_007,
                "st": None if i % 17 == 2 else {"x": None if i % 3 == 0 else i * 3, "y": f"y{i % 4}"},
                "tags": None if i % 9 == 4 else [f"t{j}" for j in range(i % 4)],
            }
        )
    return out


def arrow_table():
    import pyarrow as pa

    schema = pa.schema(
        [
            ("id", pa.int32()),
            ("a", pa.string()),
            ("b", pa.float64()),
            ("c", pa.int64()),
            ("st", pa.struct([("x", pa.int32()), ("y", pa.string())])),
            ("tags", pa.list_(pa.string())),
        ]
    )
    return pa.Table.from_pylist(rows(), schema=schema)


@dataclasses.dataclass(frozen=True)
class Case:
    algorithm: str  # AES_GCM_V1 or AES_GCM_CTR_V1
    plaintext_footer: bool
    per_column: bool  # per-column keys (kc1, kc2) and footer key kf; else uniform (kf)
    external: bool  # key material in _KEY_MATERIAL_FOR_<file>.json beside the file
    double_wrapping: bool
    data_key_bits: int = 128

    @property
    def id(self) -> str:
        return "-".join(
            [
                "ctr" if self.algorithm == "AES_GCM_CTR_V1" else "gcm",
                "plainfooter" if self.plaintext_footer else "encfooter",
                "columns" if self.per_column else "uniform",
                "external" if self.external else "internal",
                "double" if self.double_wrapping else "single",
            ]
            + ([f"dek{self.data_key_bits}"] if self.data_key_bits != 128 else [])
        )


def matrix() -> List[Case]:
    """{GCM, CTR} x {encrypted, plaintext footer} x {per-column, uniform} x
    {internal, external key material}; single and double wrapping alternate so
    that each appears with every other dimension's values; and two cases with
    256-bit data keys."""
    cases = []
    for algorithm in ("AES_GCM_V1", "AES_GCM_CTR_V1"):
        for plaintext_footer in (False, True):
            for per_column in (True, False):
                for external in (False, True):
                    double = (algorithm == "AES_GCM_V1") ^ plaintext_footer ^ per_column ^ external
                    cases.append(Case(algorithm, plaintext_footer, per_column, external, double))
    cases.append(Case("AES_GCM_V1", False, True, True, True, 256))
    cases.append(Case("AES_GCM_CTR_V1", True, False, True, False, 256))
    return cases


def key_material_file(path: Path) -> Path:
    """Where parquet-java (HadoopFSKeyMaterialStore), pyarrow and parq keep a
    file's external key material."""
    return path.parent / f"_KEY_MATERIAL_FOR_{path.name}.json"


def write_kms_config(path: Path, keys: Optional[Dict[str, bytes]] = None) -> Path:
    """parq's --kms-config file: master key ids to hex keys."""
    path.write_text(json.dumps({k: v.hex() for k, v in (keys or MASTER_KEYS).items()}))
    return path


# --- the parq tool ---------------------------------------------------------


def tool() -> Path:
    t = Path(os.environ.get("PARQ_TOOL", REPO / "build" / "parq"))
    assert t.exists(), f"the parq tool is built by scripts/test.sh before the Python tests ({t}; PARQ_TOOL to override)"
    return t


def run_parq(*args, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(tool()), *map(str, args)], capture_output=True, text=True, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(f"parq {' '.join(map(str, args))} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def parq_rows(path: Path, kms_config: Optional[Path], columns: Optional[str] = None) -> List[dict]:
    """The rows of `path` as `parq cat` prints them (JSON Lines), keys from the KMS."""
    extra = ["--kms-config", kms_config] if kms_config else []
    if columns:
        extra += ["--columns", columns]
    out = run_parq("cat", path, *extra).stdout
    return sorted((json.loads(line) for line in out.splitlines() if line), key=lambda r: r["id"])


def parq_write_args(case: Case, kms_config: Path) -> List[str]:
    """parq rewrite/convert options that encrypt their output as `case` says."""
    args = ["--kms-config", str(kms_config), "--footer-key", "kf", "--encryption-algorithm", case.algorithm]
    if case.per_column:
        for master, columns in COLUMN_KEYS.items():
            for column in columns:
                args += ["--column-key", f"{column}={master}"]
    if case.plaintext_footer:
        args.append("--plaintext-footer")
    if case.external:
        args.append("--external-key-material")
    if not case.double_wrapping:
        args.append("--single-wrapping")
    if case.data_key_bits != 128:
        args += ["--data-key-bits", str(case.data_key_bits)]
    return args


def parq_write(case: Case, source: Path, out: Path, kms_config: Path, *extra: str) -> None:
    run_parq("rewrite", source, out, *parq_write_args(case, kms_config), *extra)


# --- checks on a written file -----------------------------------------------


def assert_encrypted_as(case: Case, path: Path, kms_config: Path) -> None:
    """`path` is encrypted the way `case` says: its magic, its key material
    file (and the wrapping recorded there), and that parq cannot read its
    encrypted columns without keys."""
    with open(path, "rb") as f:
        f.seek(-4, os.SEEK_END)
        tail = f.read(4)
    assert tail == (b"PAR1" if case.plaintext_footer else b"PARE"), (case.id, tail)
    material = key_material_file(path)
    assert material.exists() == case.external, (case.id, material)
    if case.external:
        entries = json.loads(material.read_text())
        footer = [json.loads(v) for v in entries.values() if json.loads(v).get("isFooterKey")]
        assert len(footer) == 1, entries
        assert footer[0]["doubleWrapping"] == case.double_wrapping, footer[0]
        assert footer[0]["masterKeyID"] == "kf", footer[0]
        masters = {json.loads(v).get("masterKeyID") for v in entries.values()}
        assert masters == ({"kf", "kc1", "kc2"} if case.per_column else {"kf"}), masters
        # Every data key unwraps here, independently of the writer, to a key
        # of the length asked for.
        for v in entries.values():
            m = json.loads(v)
            assert m["keyMaterialType"] == "PKMT1" and m["doubleWrapping"] == case.double_wrapping, m
            assert len(unwrap_data_key(m)) * 8 == case.data_key_bits, m
    # Without keys: an encrypted footer fails at once; a plaintext footer
    # fails on the encrypted columns only.
    encrypted = ENCRYPTED_COLUMNS if case.per_column else ["id", "a"]
    proc = run_parq("cat", path, "--columns", ",".join(c.split(".")[0] for c in encrypted), check=False)
    assert proc.returncode != 0 and not proc.stdout.strip(), (case.id, proc.stdout[:200])
    if case.plaintext_footer and case.per_column:
        plain = run_parq("cat", path, "--columns", "id,c").stdout.splitlines()
        assert len(plain) == ROWS


# --- reading with explicit keys, unwrapped here -----------------------------


class _Compact:
    """Just enough of Thrift's compact protocol to find one binary field of a
    struct (FileCryptoMetaData.key_metadata), skipping everything else."""

    def __init__(self, data: bytes, pos: int = 0):
        self.data, self.pos = data, pos

    def byte(self) -> int:
        self.pos += 1
        return self.data[self.pos - 1]

    def varint(self) -> int:
        shift = value = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return value

    def binary(self) -> bytes:
        n = self.varint()
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def fields(self):
        """(field id, type) of a struct's fields, up to its stop."""
        last = 0
        while True:
            header = self.byte()
            if header == 0:
                return
            delta, kind = header >> 4, header & 0x0F
            if delta:
                last += delta
            else:
                z = self.varint()
                last = (z >> 1) ^ -(z & 1)
            yield last, kind

    def skip(self, kind: int, in_list: bool = False) -> None:
        if kind in (1, 2):
            if in_list:
                self.pos += 1
        elif kind == 3:
            self.pos += 1
        elif kind in (4, 5, 6):
            self.varint()
        elif kind == 7:
            self.pos += 8
        elif kind == 8:
            self.binary()
        elif kind in (9, 10):
            header = self.byte()
            n = header >> 4 if header >> 4 != 15 else self.varint()
            for _ in range(n):
                self.skip(header & 0x0F, in_list=True)
        elif kind == 11:
            n = self.varint()
            if n:
                types = self.byte()
                for _ in range(n):
                    self.skip(types >> 4, in_list=True)
                    self.skip(types & 0x0F, in_list=True)
        elif kind == 12:
            for _, k in self.fields():
                self.skip(k)
        else:
            raise ValueError(f"Thrift compact type {kind}")


def footer_key_metadata(path: Path) -> str:
    """The footer key's metadata: from FileCryptoMetaData (field 2), at the
    start of an encrypted footer, or as parq meta shows a plaintext footer's."""
    data = path.read_bytes()
    if data[-4:] == b"PAR1":
        return json.loads(run_parq("meta", path, "--json").stdout)["encryption"]["footer_key_metadata"]
    assert data[-4:] == b"PARE"
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    reader = _Compact(data, start)
    for field, kind in reader.fields():
        if field == 2 and kind == 8:
            return reader.binary().decode()
        reader.skip(kind)
    raise AssertionError(f"{path}: no footer key metadata")


def data_key(key_metadata: str, path: Path) -> bytes:
    """The data key a key metadata (PKMT1) refers to, inside it or in the
    file's external key material, unwrapped with MASTER_KEYS."""
    material = json.loads(key_metadata)
    assert material["keyMaterialType"] == "PKMT1", material
    if not material["internalStorage"]:
        material = json.loads(json.loads(key_material_file(path).read_text())[material["keyReference"]])
    return unwrap_data_key(material)


def explicit_key_args(path: Path) -> List[str]:
    """--footer-key and --column-key options with the raw data keys of an
    encrypted file, unwrapped here (not by parq) from its key material."""
    footer = data_key(footer_key_metadata(path), path)
    args = ["--footer-key", footer.hex()]
    meta = json.loads(run_parq("meta", path, "--json", "--footer-key", footer.hex()).stdout)
    seen = set()
    for group in meta["row_groups"]:
        for column in group["columns"]:
            if column.get("key_metadata") and column["path"] not in seen:
                seen.add(column["path"])
                args += ["--column-key", f"{column['path']}={data_key(column['key_metadata'], path).hex()}"]
    return args


def parq_rows_explicit(path: Path) -> List[dict]:
    """The rows of `path` read by parq with explicit keys (parq's decryption
    alone, without its key management)."""
    out = run_parq("cat", path, *explicit_key_args(path)).stdout
    return sorted((json.loads(line) for line in out.splitlines() if line), key=lambda r: r["id"])


# --- a pyarrow KMS client wrapping as parquet-java's InMemoryKMS -------------


def wrap(key: bytes, master_key: bytes, master_key_id: str) -> str:
    nonce = os.urandom(12)
    return base64.b64encode(nonce + AESGCM(master_key).encrypt(nonce, key, master_key_id.encode())).decode()


def unwrap(wrapped: str, master_key: bytes, master_key_id: str) -> bytes:
    raw = base64.b64decode(wrapped)
    return AESGCM(master_key).decrypt(raw[:12], raw[12:], master_key_id.encode())


def unwrap_data_key(material: dict, master_keys: Optional[Dict[str, bytes]] = None) -> bytes:
    """The data key of one PKMT1 key material (parquet-java's FileKeyUnwrapper):
    with double wrapping, the KEK unwraps under the master key and the data key
    under the KEK, the KEK's id (base64-decoded) as the AAD."""
    master_id = material["masterKeyID"]
    master = (master_keys or MASTER_KEYS)[master_id]
    if not material["doubleWrapping"]:
        return unwrap(material["wrappedDEK"], master, master_id)
    kek = unwrap(material["wrappedKEK"], master, master_id)
    raw = base64.b64decode(material["wrappedDEK"])
    return AESGCM(kek).decrypt(raw[:12], raw[12:], base64.b64decode(material["keyEncryptionKeyID"]))


def pyarrow_kms_client_class():
    import pyarrow.parquet.encryption as pe

    class InMemoryKmsClient(pe.KmsClient):
        """Master keys from the connection config's custom_kms_conf (ids to
        hex keys), as parq's --kms-config file holds them."""

        def __init__(self, config):
            super().__init__()
            self.master_keys = {k: bytes.fromhex(v) for k, v in config.custom_kms_conf.items()}

        def wrap_key(self, key_bytes, master_key_identifier):
            return wrap(bytes(key_bytes), self.master_keys[master_key_identifier], master_key_identifier)

        def unwrap_key(self, wrapped_key, master_key_identifier):
            return unwrap(wrapped_key, self.master_keys[master_key_identifier], master_key_identifier)

    return InMemoryKmsClient


# Fixtures both interop files use (imported there by name).
@pytest.fixture(scope="module")
def kms_config(tmp_path_factory) -> Path:
    return write_kms_config(tmp_path_factory.mktemp("kms") / "kms.json")


@pytest.fixture(scope="module")
def plain_source(tmp_path_factory) -> Path:
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("source") / "plain.parquet"
    pq.write_table(arrow_table(), path, row_group_size=64)
    return path
