"""The compiled kernels; everything else about the package is in pyproject.toml.

The exact search's hot loops (builder/optimal/_scan.c), NYT hard mode's rule
(builder/_nyt.c), the reply matrices' kernels (builder/_replies.c) and the
greedy metrics and tree grower (builder/_partitions.c) are C, so nothing is
compiled at run time: a command starts at once, and no JIT runtime (numba's
was 65 MB in a process, and most of the environment) is installed. Only
portable flags: a wheel runs on any machine of its platform (x86-64 with
POPCNT, every such CPU since 2008). Building from source needs a C compiler
and Python's headers (Debian: gcc, python3-dev).
"""

import platform

from setuptools import Extension, setup

# The distinct-reply count is a population count: one instruction on every x86-64
# machine since 2008 (and on arm64), a slow bit trick without -mpopcnt.
X86 = platform.machine().lower() in ("x86_64", "amd64")
FLAGS = ["-O3", "-std=c11", *(["-mpopcnt"] if X86 else [])]

setup(
    ext_modules=[
        Extension(
            "guesswork.builder.optimal._scan",
            sources=["builder/optimal/_scan.c"],
            depends=["builder/optimal/_scan_loops.h", "builder/_buffers.h"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "guesswork.builder._nyt",
            sources=["builder/_nyt.c"],
            depends=["builder/_buffers.h", "builder/_nyt_rule.h"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "guesswork.builder._replies",
            sources=["builder/_replies.c"],
            depends=["builder/_replies_rows.h", "builder/_buffers.h"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "guesswork.builder._partitions",
            sources=["builder/_partitions.c"],
            depends=[
                "builder/_buffers.h",
                "builder/_nyt_rule.h",
                "builder/_partitions.h",
                "builder/_partitions_loops.h",
            ],
            # The metrics' floats must be the seeds' bit for bit: no fused
            # multiply-adds (arm64 and x86-64 with FMA would otherwise fuse).
            extra_compile_args=[*FLAGS, "-ffp-contract=off"],
        ),
    ]
)
