"""The warpsim binary ctest names in WARPSIM_BINARY, for the analysis tests that set the model's
output beside the H100's; None (and a line saying what is left unchecked) where there is none."""
import os


def model_binary(unchecked):
    binary = os.environ.get("WARPSIM_BINARY")
    if binary and os.path.exists(binary):
        return binary
    print(f"no WARPSIM_BINARY: {unchecked} not checked")
    return None
