"""cmake/git_commit.cmake, which every build runs: the header it writes names the source tree's
commit at that build, a new commit rewrites it, and a build without one leaves it untouched (so
nothing recompiles). A commit made after the build folder was configured must not be reported as
the older one by --version and in result files. Outside a git checkout the commit is "unknown".
Also: this build's `warpsim --version` names the checkout's commit as it is now."""
import os
import shutil
import subprocess
import sys
import tempfile

source = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
script = os.path.join(source, "cmake", "git_commit.cmake")


def run(*args, cwd=None):
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def write_header(tree, out):
    run("cmake", f"-DSOURCE_DIR={tree}", f"-DOUT={out}", "-P", script)
    with open(out) as f:
        return f.read()


def main():
    if shutil.which("cmake") is None or shutil.which("git") is None:
        print("cmake or git missing: skipped")
        return 77
    for variable in ("GIT_DIR", "GIT_WORK_TREE"):  # set when run from a git hook: not the scratch tree
        os.environ.pop(variable, None)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GIT_CEILING_DIRECTORIES"] = tmp  # a checkout above the scratch tree is not its own
        tree, out = os.path.join(tmp, "tree"), os.path.join(tmp, "generated", "warpsim_git_commit.h")
        os.makedirs(tree)
        assert '"unknown"' in write_header(tree, out)
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
        run("git", "init", "-q", cwd=tree)
        for n in (1, 2):
            with open(os.path.join(tree, "f"), "w") as f:
                f.write(str(n))
            run(*git, "add", "f", cwd=tree)
            run(*git, "commit", "-q", "-m", str(n), cwd=tree)
            commit = run("git", "rev-parse", "--short=12", "HEAD", cwd=tree)
            assert f'#define WARPSIM_GIT_COMMIT "{commit}"' in write_header(tree, out), (n, commit)
        os.utime(out, (1_000_000, 1_000_000))
        write_header(tree, out)
        assert os.stat(out).st_mtime == 1_000_000, "rewritten without a new commit"

    del os.environ["GIT_CEILING_DIRECTORIES"]
    binary = os.environ.get("WARPSIM_BINARY")
    if binary and os.path.exists(os.path.join(source, ".git")):
        head = run("git", "rev-parse", "--short=12", "HEAD", cwd=source)
        version = run(binary, "--version")
        assert f"(git {head})" in version, (version, head)
    print("git_commit.cmake: unknown outside git, follows each commit, untouched otherwise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
