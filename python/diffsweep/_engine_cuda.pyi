"""Type stubs of diffsweep._engine_cuda: the same functions as diffsweep._engine_cpu."""
from diffsweep._engine_cuda._engine_cpu import *  # noqa: F403
