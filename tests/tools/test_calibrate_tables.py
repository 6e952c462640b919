#!/usr/bin/env python3
"""What calibrate does without a GPU: a family it does not have is refused before anything runs
(exit 2, naming it), and the exact counts of its second ncu run replace the first run's only
when both runs name the same cases in the same order (ncu_table.with_columns_of)."""
import os
import subprocess
import sys
import tempfile

source_dir = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
probes = os.path.join(source_dir, "tools", "gpu-probes")
sys.path.insert(0, probes)
import ncu_table  # noqa: E402

ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"


def main():
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([sys.executable, os.path.join(probes, "calibrate"), out, "offset", "strides"],
                           capture_output=True, text=True)
        assert r.returncode == 2, (r.returncode, r.stderr)
        assert "no family 'strides'" in r.stderr and "stride" in r.stderr, r.stderr
        assert os.listdir(out) == [], os.listdir(out)

    first = [("writeOffset", "offset=1", {ST: "163949", "gpu__time_duration.sum": "5728"}),
             ("writeOffset", "offset=2", {ST: "164811", "gpu__time_duration.sum": "5696"})]
    alone = [("writeOffset", "offset=1", {ST: "163839"}), ("writeOffset", "offset=2", {ST: "163839"})]
    merged = ncu_table.with_columns_of(first, alone, [ST])
    assert [row[ST] for _, _, row in merged] == ["163839", "163839"]
    assert [row["gpu__time_duration.sum"] for _, _, row in merged] == ["5728", "5696"]
    assert first[0][2][ST] == "163949"  # the first run's rows are not changed in place
    try:
        ncu_table.with_columns_of(first, list(reversed(alone)), [ST])
        raise AssertionError("cases in another order were taken")
    except ncu_table.NcuError as e:
        assert "differ" in str(e)
    print("calibrate: an unknown family exits 2; the counts run's columns replace the first run's, case by case")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
