"""The backends engine tests run on: the CPU always; CUDA when its module is built and a
device is visible (in the style of NVIDIA Warp's suite, every test on every device)."""
import diffsweep as ds

_info = ds.info()
BACKENDS = ["cpu"] + (["cuda"] if _info["cuda_built"] and _info["cuda_devices"] > 0 else [])
