"""Suite-wide setup."""
import signal

# The Ctrl-C tests start CLI processes and send them SIGINT. A process inherits an ignored
# SIGINT (a shell runs background jobs so: `bash .ci/run &`), and Python then installs no
# KeyboardInterrupt handler, so those children would run to the end. Give the suite, and so
# its children, the normal Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
