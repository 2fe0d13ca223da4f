"""parq.dask on a two-process dask.distributed cluster: the same rows and the same
job answers as Dask's own Parquet reader (dd.read_parquet, pyarrow underneath)."""

from __future__ import annotations

import math
import os

# Plain imports: a missing engine fails the module, never skips it.
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dask.distributed import Client, LocalCluster

import parq
import parq.dask
from dist_data import FILTER_TEXT, SHIP_CUTOFF

pytestmark = pytest.mark.dask

SPLIT_BYTES = 1 << 20  # several splits per file of the test dataset


@pytest.fixture(scope="module")
def client():
    with LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None, memory_limit="2GiB"
    ) as cluster, Client(cluster) as c:
        yield c


def _job(df):
    """The peers' job: a filter on a date and an integer, then per flag and status
    the count, sums, extremes and a non-null count."""
    g = df.groupby(["l_returnflag", "l_linestatus"])
    out = g.agg(
        rows=("l_orderkey", "count"),
        qty=("l_quantity", "sum"),
        price=("l_extendedprice", "sum"),
        price_min=("l_extendedprice", "min"),
        price_max=("l_extendedprice", "max"),
        disc_max=("l_discount", "max"),
        comments=("l_comment", "count"),
    )
    return out.compute().reset_index()


def _rows(frame):
    """The answers as sorted tuples of Python values."""
    out = []
    for r in frame.itertuples(index=False):
        out.append(tuple(None if pd.isna(v) else (v.item() if hasattr(v, "item") else v) for v in r))
    return sorted(out)


def _same_answers(got, expected, float_columns):
    assert len(got) == len(expected) > 0
    for g, e in zip(got, expected):
        for i, (a, b) in enumerate(zip(g, e)):
            if i in float_columns:
                assert math.isclose(a, b, rel_tol=1e-12), (g, e)  # sums in another order
            else:
                assert a == b, (g, e)


def test_job_gives_the_answers_of_dask_read_parquet(client, dist_dataset):
    columns = [
        "l_orderkey", "l_quantity", "l_extendedprice", "l_discount",
        "l_returnflag", "l_linestatus", "l_shipdate", "l_comment",
    ]
    ours = parq.dask.read_parquet(dist_dataset, columns=columns, filter=FILTER_TEXT, target_bytes=SPLIT_BYTES)
    assert ours.npartitions == len(parq.plan_splits(dist_dataset, SPLIT_BYTES, columns)) > 4
    ref = dd.read_parquet(str(dist_dataset), columns=columns)
    # The reference filters in Dask itself, not in its reader.
    ref = ref[(ref.l_shipdate <= SHIP_CUTOFF) & (ref.l_quantity > 5)]
    got, expected = _rows(_job(ours)), _rows(_job(ref))
    _same_answers(got, expected, float_columns={4})
    # The filter kept some rows and dropped some.
    total = sum(r[2] for r in got)
    assert 0 < total < sum(s.rows for s in parq.plan_splits(dist_dataset))


def test_rows_are_those_of_pyarrow(client, dist_dataset):
    df = parq.dask.read_parquet(dist_dataset, target_bytes=SPLIT_BYTES).compute()
    expected = pq.read_table(sorted(str(p) for p in dist_dataset.glob("*.parquet")))
    got = pa.Table.from_pandas(df.reset_index(drop=True), preserve_index=False)
    assert got.column_names == expected.column_names
    assert got.num_rows == expected.num_rows
    for name in expected.column_names:
        g = got.column(name).cast(expected.schema.field(name).type)
        assert g.equals(expected.column(name)), name
    assert df["l_quantity"].isna().sum() > 0  # the nulls came through as nulls


def test_meta_matches_every_partition(client, dist_dataset):
    df = parq.dask.read_parquet(dist_dataset, target_bytes=SPLIT_BYTES, filter="l_quantity IS NULL")
    parts = client.compute([df.get_partition(i) for i in range(df.npartitions)], sync=True)
    assert sum(len(p) for p in parts) > 0
    for p in parts:
        # Integer columns stay Int64 in partitions with nulls and without.
        assert p.dtypes.to_dict() == df.dtypes.to_dict()
    assert str(df.dtypes["l_quantity"]) == "Int64"
    assert isinstance(df.dtypes["l_shipdate"], pd.ArrowDtype)


def test_projection_index_and_pyarrow_backend(client, dist_dataset):
    df = parq.dask.read_parquet(
        dist_dataset, columns=["l_orderkey", "l_shipmode"], index="l_orderkey",
        filter=[("l_orderkey", "<", 1000)], dtype_backend="pyarrow",
    )
    assert list(df.columns) == ["l_shipmode"] and df.index.name == "l_orderkey"
    assert all(isinstance(t, pd.ArrowDtype) for t in df.dtypes)
    got = df.compute().sort_index()
    t = pq.read_table(dist_dataset / "part-000.parquet", columns=["l_orderkey", "l_shipmode"])
    t = t.filter(pa.compute.less(t["l_orderkey"], 1000))
    assert got.index.tolist() == t["l_orderkey"].to_pylist()
    assert got["l_shipmode"].tolist() == t["l_shipmode"].to_pylist()


def test_a_dataset_without_rows(client, tmp_path):
    parq.write_table(pa.table({"a": pa.array([], pa.int64()), "b": pa.array([], pa.string())}), tmp_path / "e.parquet")
    df = parq.dask.read_parquet(tmp_path)
    assert df.npartitions == 1
    assert list(df.columns) == ["a", "b"] and str(df.dtypes["a"]) == "Int64"
    assert len(df.compute()) == 0
    with pytest.raises(parq.InvalidArgumentError):
        parq.dask.read_parquet(tmp_path, dtype_backend="numpy")
