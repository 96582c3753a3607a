// The self-pipe trick for the command-line tool's Ctrl-C and SIGTERM (see SignalWatcher.swift
// for why not libdispatch's signal sources).
#define _GNU_SOURCE
#include "CSignalPipe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t write_end = -1;

static void on_signal(int number) {
    // Only async-signal-safe calls here; errno is the interrupted code's.
    const int saved = errno;
    const unsigned char byte = (unsigned char)number;
    if (write_end >= 0) (void)!write(write_end, &byte, 1);
    errno = saved;
}

int oc_signal_pipe_open(const int *signals, int count) {
    int ends[2];
    if (write_end >= 0) {
        errno = EBUSY;
        return -1;
    }
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) {
            const int saved = errno;
            oc_signal_pipe_close(signals, i);
            close(ends[0]);
            errno = saved;
            return -1;
        }
    }
    // A process may start with them blocked (a parent's mask is inherited): this thread takes them.
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    return ends[0];
}

void oc_signal_pipe_close(const int *signals, int count) {
    for (int i = 0; i < count; i++) signal(signals[i], SIG_IGN);
    const int end = write_end;
    write_end = -1;
    if (end >= 0) close(end);
}
