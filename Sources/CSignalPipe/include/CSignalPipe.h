#ifndef OC_SIGNAL_PIPE_H
#define OC_SIGNAL_PIPE_H

/// Catches each of `signals` with a handler that writes the signal's number (one byte) into a
/// pipe, whichever thread the kernel picks to run it, and returns the pipe's read end
/// (non-blocking, close-on-exec), or -1 with errno set. The calling thread unblocks them (a
/// process may inherit them blocked). One pipe per process at a time.
int oc_signal_pipe_open(const int *signals, int count);

/// Ignores `signals` from now on (a run that is ending is not cut short by a second one) and
/// closes the pipe's write end; the caller closes the read end.
void oc_signal_pipe_close(const int *signals, int count);

#endif
