import CSignalPipe
import Dispatch
import Glibc

/// Ctrl-C (SIGINT) and SIGTERM for a run that ends cleanly: `handler` gets each signal's
/// number on `queue`, until `cancel()`, after which the signals are ignored (cleaning up is
/// not cut short by a second one).
///
/// Not `DispatchSource.makeSignalSource`: on Linux libdispatch reads signals from a
/// signalfd, which sees a signal only while every thread blocks it. A thread started before
/// the source (the camera's, the device monitor's) does not, and the kernel may hand it the
/// signal, which it then drops under `SIG_IGN`: the run went on for 120 s after a SIGTERM in
/// CI. Here a handler of our own writes the number into a pipe whichever thread runs it,
/// and a read source on the pipe calls `handler`.
final class SignalWatcher {
    private let signals: [Int32]
    private let source: any DispatchSourceRead

    init(_ signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let fd = signals.withUnsafeBufferPointer { oc_signal_pipe_open($0.baseAddress, Int32($0.count)) }
        precondition(fd >= 0, "cannot catch signals: \(String(cString: strerror(errno)))")
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var number: UInt8 = 0
            while read(fd, &number, 1) == 1 { handler(Int32(number)) }
        }
        source.setCancelHandler { close(fd) }
        source.activate()
    }

    /// The name a message gives the signal.
    static func name(_ number: Int32) -> String { number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)" }

    /// Stops watching; the signals are ignored from now on.
    func cancel() {
        signals.withUnsafeBufferPointer { oc_signal_pipe_close($0.baseAddress, Int32($0.count)) }
        source.cancel()
    }
}
