"""parq.ray on a local two-CPU Ray: the same rows and the same job answers as
Ray's own Parquet reader (ray.data.read_parquet, pyarrow underneath), and read
tasks that share the splits out as asked."""

from __future__ import annotations

import logging
import math
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

# Plain imports: a missing engine fails the module, never skips it.
import ray
import ray.data
from ray.data.aggregate import Count, Max, Min, Sum

import parq
import parq.ray
from dist_data import FILTER_TEXT, reference_filter
from parq.ray import ParqDatasource, _group

pytestmark = pytest.mark.ray

SPLIT_BYTES = 1 << 20


@pytest.fixture(scope="module")
def local_ray():
    # Workers import dist_data (the reference job's filter) from this folder.
    env = {"env_vars": {"PYTHONPATH": os.path.dirname(os.path.abspath(__file__))}}
    ray.init(
        num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING, runtime_env=env
    )
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    yield
    ray.shutdown()


def _job(ds):
    aggs = [
        Count(alias_name="rows"),
        Sum("l_quantity", alias_name="qty"),
        Sum("l_extendedprice", alias_name="price"),
        Min("l_extendedprice", alias_name="price_min"),
        Max("l_extendedprice", alias_name="price_max"),
        Max("l_discount", alias_name="disc_max"),
        Count("l_comment", ignore_nulls=True, alias_name="comments"),
    ]
    rows = ds.groupby(["l_returnflag", "l_linestatus"]).aggregate(*aggs).take_all()
    keys = ["l_returnflag", "l_linestatus", "rows", "qty", "price", "price_min", "price_max", "disc_max", "comments"]
    return sorted(tuple(r[k] for k in keys) for r in rows)


def test_job_gives_the_answers_of_ray_read_parquet(local_ray, dist_dataset):
    columns = [
        "l_quantity", "l_extendedprice", "l_discount", "l_returnflag", "l_linestatus", "l_shipdate", "l_comment",
    ]
    ours = parq.ray.read_parquet(dist_dataset, columns=columns, filter=FILTER_TEXT, target_bytes=SPLIT_BYTES)
    ref = ray.data.read_parquet(str(dist_dataset)).select_columns(columns)
    ref = ref.map_batches(reference_filter, batch_format="pyarrow")
    got, expected = _job(ours), _job(ref)
    assert len(got) == len(expected) == 6
    for g, e in zip(got, expected):
        assert g[:4] == e[:4] and g[5:] == e[5:], (g, e)
        assert math.isclose(g[4], e[4], rel_tol=1e-12)  # a double sum in another order
    total = sum(r[2] for r in got)
    assert 0 < total < parq.read_metadata(dist_dataset / "part-000.parquet").num_rows * 4


def test_rows_are_those_of_pyarrow(local_ray, dist_dataset):
    ds = parq.ray.read_parquet(dist_dataset, target_bytes=SPLIT_BYTES)
    got = pa.concat_tables(ray.get(ds.to_arrow_refs())).sort_by("l_orderkey")
    expected = pq.read_table(sorted(str(p) for p in dist_dataset.glob("*.parquet")))
    assert got.schema.equals(expected.schema)
    assert got.equals(expected)


def test_select_columns_is_pushed_into_parq(local_ray, dist_dataset):
    source = ParqDatasource(dist_dataset, columns=["l_orderkey", "l_shipmode", "l_comment"], target_bytes=SPLIT_BYTES)
    narrowed = source.apply_projection({"l_shipmode": "l_shipmode"})
    tasks = narrowed.get_read_tasks(2)
    assert [f.name for f in tasks[0].schema] == ["l_shipmode"]
    assert pa.concat_tables(list(tasks[0]())).column_names == ["l_shipmode"]
    ds = ray.data.read_datasource(source).select_columns(["l_comment"])
    assert ds.schema().names == ["l_comment"]
    got = pa.concat_tables(ray.get(ds.to_arrow_refs()))
    assert got.column_names == ["l_comment"] and got.num_rows == sum(s.rows for s in source.splits)
    assert got["l_comment"].null_count > 0


def test_read_tasks_share_the_splits(dist_dataset):
    # No Ray workers needed: the tasks are planned and run here.
    source = ParqDatasource(dist_dataset, target_bytes=SPLIT_BYTES)
    splits = source.splits
    assert len(splits) > 4
    meta = pq.ParquetFile(splits[0].path).metadata
    # The in-memory estimate is the uncompressed size of the chunks, as the footers give it.
    expected = 0
    for path in sorted(dist_dataset.glob("*.parquet")):
        m = pq.ParquetFile(path).metadata
        expected += sum(m.row_group(g).column(c).total_uncompressed_size
                        for g in range(m.num_row_groups) for c in range(m.num_columns))
    assert source.estimate_inmemory_data_size() == expected
    for parallelism in (1, 3, len(splits), 1000):
        tasks = source.get_read_tasks(parallelism)
        assert len(tasks) == min(parallelism, len(splits))
        assert sum(t.metadata.num_rows for t in tasks) == sum(s.rows for s in splits)
        assert sum(t.metadata.size_bytes for t in tasks) == expected
        assert sorted({f for t in tasks for f in t.metadata.input_files}) == sorted({s.path for s in splits})
    tasks = source.get_read_tasks(3)
    first = pa.concat_tables(list(tasks[0]()))
    assert first.num_rows == tasks[0].metadata.num_rows
    assert first["l_orderkey"].to_pylist()[:3] == [1, 2, 3]
    assert meta.num_rows > 0
    # A filter's row counts are unknown until read.
    assert all(t.metadata.num_rows is None for t in ParqDatasource(dist_dataset, filter="l_quantity > 5").get_read_tasks(2))


def test_grouping_keeps_order_and_evens_bytes():
    def split(i, size):
        return parq.Split(f"f{i}", 0, 1, 1, size)

    splits = [split(i, s) for i, s in enumerate([10, 10, 10, 10, 10, 10])]
    assert [[s.path for s in g] for g in _group(splits, 3)] == [["f0", "f1"], ["f2", "f3"], ["f4", "f5"]]
    uneven = [split(i, s) for i, s in enumerate([100, 1, 1, 1, 1, 1])]
    groups = _group(uneven, 2)
    assert [len(g) for g in groups] == [1, 5]
    # Fewer splits than groups asked for after a big one: every group gets one.
    assert [len(g) for g in _group([split(i, s) for i, s in enumerate([1, 1, 100])], 3)] == [1, 1, 1]
    for n in range(1, 8):
        groups = _group(splits, n)
        assert len(groups) == min(n, len(splits))
        assert [s for g in groups for s in g] == splits
