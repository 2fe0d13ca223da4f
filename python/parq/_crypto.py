"""Keys for encrypted Parquet files (Parquet modular encryption).

``Decryption`` is what a reader is given (``decryption=`` of ``ParquetFile``,
``read_table``, ``Dataset``...), ``Encryption`` what a writer encrypts with
(``encryption=`` of ``write_table`` and ``ParquetWriter``). A dict of the same
fields works too. Keys are ``bytes`` of 16, 24 or 32 bytes; a ``str`` key
stands for its UTF-8 bytes, as in pyarrow. With ``kms_config`` (a path to a
JSON file, or a dict, of master key ids to keys in hex), the writer's keys are
master key ids: random data keys are generated, wrapped by the master keys and
stored as key material (PKMT1, the format parquet-java and pyarrow share),
and readers take their keys from that material.
"""

import os
from dataclasses import dataclass, fields
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import InvalidArgumentError

Key = Union[bytes, str]
KmsConfig = Union[str, "os.PathLike[str]", Mapping[str, str]]


def _key(name: str, v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode()
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise TypeError(f"{name} is bytes or str, not {type(v).__name__}")


def _kms(v: Any) -> Any:
    if isinstance(v, (str, os.PathLike)):
        return os.fsdecode(os.fspath(v))
    if isinstance(v, Mapping):
        return {str(k): str(hex_key) for k, hex_key in v.items()}
    raise TypeError(f"kms_config is a path or a dict of master key ids to hex keys, not {type(v).__name__}")


@dataclass(frozen=True)
class Decryption:
    """The keys to read an encrypted file with: explicit keys (``footer_key``,
    ``column_keys`` by dotted column path), or ``kms_config`` for files written
    with key material; ``aad_prefix`` for files that do not store theirs."""

    footer_key: Optional[Key] = None
    column_keys: Optional[Mapping[str, Key]] = None
    aad_prefix: Optional[Key] = None
    kms_config: Optional[KmsConfig] = None
    verify_footer_signature: bool = True


@dataclass(frozen=True)
class Encryption:
    """How a writer encrypts: ``footer_key`` alone encrypts every column with it
    (uniform); ``column_keys`` encrypts the columns named, each with its key, and
    leaves the others in plaintext. ``plaintext_footer`` leaves the footer readable
    (signed), ``algorithm`` is ``"AES_GCM_V1"`` or ``"AES_GCM_CTR_V1"``,
    ``aad_prefix`` binds the file to a name (``store_aad_prefix=False``: readers
    must supply it). With ``kms_config``, keys are master key ids;
    ``external_key_material`` stores the key material beside the file,
    ``double_wrapping`` and ``data_key_bits`` say how data keys are made."""

    footer_key: Key
    column_keys: Optional[Mapping[str, Key]] = None
    plaintext_footer: bool = False
    algorithm: str = "AES_GCM_V1"
    aad_prefix: Optional[Key] = None
    store_aad_prefix: bool = True
    kms_config: Optional[KmsConfig] = None
    external_key_material: bool = False
    double_wrapping: bool = True
    data_key_bits: int = 128


def _as(cls: Any, v: Any, what: str) -> Any:
    if isinstance(v, cls):
        return v
    if isinstance(v, Mapping):
        names = {f.name for f in fields(cls)}
        unknown = set(v) - names
        if unknown:
            raise InvalidArgumentError(f"{what}: unknown option(s) {sorted(unknown)}")
        return cls(**v)
    raise TypeError(f"{what} is a parq.{cls.__name__} or a dict, not {type(v).__name__}")


def decryption_dict(v: Any) -> Optional[Dict[str, Any]]:
    """The form the extension takes."""
    if v is None:
        return None
    d = _as(Decryption, v, "decryption")
    out: Dict[str, Any] = {"verify_footer_signature": bool(d.verify_footer_signature)}
    if d.footer_key is not None:
        out["footer_key"] = _key("footer_key", d.footer_key)
    if d.column_keys:
        out["column_keys"] = {str(c): _key(f"column key of {c}", k) for c, k in d.column_keys.items()}
    if d.aad_prefix is not None:
        out["aad_prefix"] = _key("aad_prefix", d.aad_prefix)
    if d.kms_config is not None:
        out["kms_config"] = _kms(d.kms_config)
    return out


def encryption_dict(v: Any) -> Optional[Dict[str, Any]]:
    """The form the extension takes."""
    if v is None:
        return None
    e = _as(Encryption, v, "encryption")
    out: Dict[str, Any] = {
        "plaintext_footer": bool(e.plaintext_footer),
        "algorithm": str(e.algorithm),
        "store_aad_prefix": bool(e.store_aad_prefix),
    }
    if e.aad_prefix is not None:
        out["aad_prefix"] = _key("aad_prefix", e.aad_prefix)
    if e.kms_config is not None:
        # Keys are master key ids.
        out["kms_config"] = _kms(e.kms_config)
        out["footer_key"] = str(e.footer_key)
        if e.column_keys:
            out["column_keys"] = {str(c): str(k) for c, k in e.column_keys.items()}
        out["external_key_material"] = bool(e.external_key_material)
        out["double_wrapping"] = bool(e.double_wrapping)
        out["data_key_bits"] = int(e.data_key_bits)
        return out
    if e.external_key_material or not e.double_wrapping or e.data_key_bits != 128:
        raise InvalidArgumentError("external_key_material, double_wrapping and data_key_bits need kms_config")
    out["footer_key"] = _key("footer_key", e.footer_key)
    if e.column_keys:
        out["column_keys"] = {str(c): _key(f"column key of {c}", k) for c, k in e.column_keys.items()}
    return out


class InMemoryKms:
    """parq's in-memory KMS (master keys held in this process), wrapping keys as
    parquet-java's InMemoryKMS does: a pyarrow ``KmsClient`` that delegates to it
    reads and writes files parq reads and writes with the same ``kms_config``."""

    def __init__(self, config: KmsConfig) -> None:
        from . import _parq

        self._kms = _parq._InMemoryKms.from_config(_kms(config))

    def wrap_key(self, key: bytes, master_key_id: str) -> str:
        return self._kms.wrap_key(bytes(key), master_key_id)

    def unwrap_key(self, wrapped_key: str, master_key_id: str) -> bytes:
        return self._kms.unwrap_key(wrapped_key, master_key_id)


def rotate_master_keys(path: Union[str, "os.PathLike[str]"], current: KmsConfig, new: KmsConfig) -> None:
    """Re-wraps the keys of a file's external key material (``_KEY_MATERIAL_FOR_<name>.json``
    beside it) from the ``current`` master keys to the ``new`` ones; the data file is not
    touched."""
    from . import _parq

    _parq._rotate_master_keys(os.fsdecode(os.fspath(path)), _kms(current), _kms(new))
