import Foundation
import TestSupport
import Testing

/// A thread running its own run loop until stopped, for completions delivered to a run loop.
final class RunLoopThread: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var loopThread: pthread_t?
    private let started = Completion<Bool>("the run loop thread")
    private var runLoop: RunLoop?

    /// The thread the run loop runs on.
    var thread: pthread_t {
        lock.lock()
        defer { lock.unlock() }
        return loopThread!
    }

    /// Starts the thread; returns its run loop once it runs.
    func start() throws -> RunLoop {
        let thread = Thread { [self] in
            let loop = RunLoop.current
            // A far-off timer keeps the run loop waiting (it returns at once with no source).
            loop.add(Timer(timeInterval: 3_600, repeats: true) { _ in }, forMode: .default)
            lock.lock()
            loopThread = pthread_self()
            runLoop = loop
            lock.unlock()
            started.fulfil(true)
            while !isStopping { _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05)) }
        }
        thread.start()
        try started.wait()
        lock.lock()
        defer { lock.unlock() }
        return runLoop!
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }
}
