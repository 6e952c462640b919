"""Reading the measurements in analysis/validation/data: CSV files, plain or xz-compressed, whose
'#' lines name the command, the GPU, the driver and the date they were taken with."""
import csv
import lzma


def lines(path):
    """The file's lines; a name ending in .xz is read through xz."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return f.readlines()


def data_lines(path):
    """The file's lines less its '#' lines."""
    return [line for line in lines(path) if not line.startswith("#")]


def rows(path):
    """The file's CSV rows as dicts, keyed by the first line that is not a '#' line."""
    return list(csv.DictReader(data_lines(path)))
