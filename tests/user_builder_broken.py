"""A user's module that fails while it is imported (tests/test_user_builders.py: a sweep file
naming a builder in it gets one line, not a traceback). Not a test file."""
raise RuntimeError("this module is broken on purpose")
