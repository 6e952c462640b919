"""A real one-node Slurm cluster (scripts/slurm-test): the generated array + afterok merge jobs
run through slurmctld/slurmd and the merged file equals a single-process run. Exit 77 with the
reason when Slurm, munge or root are missing -- never a silent pass."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sweeptest as st

st.ensure_modules()

script = os.path.join(st.source_dir(), "scripts", "slurm-test")
r = subprocess.run([script, st.binary()], env={k: v for k, v in os.environ.items() if not k.startswith("SLURM_")},
                   timeout=600)
sys.exit(r.returncode)
