import CAffinity
import Dispatch
import Foundation
import Synchronization

/// Work that can be split into parts run at once on different threads.
protocol ParallelJob: AnyObject, Sendable {
    /// Runs part `part` of `parts`; parts must touch disjoint memory.
    func run(part: Int, of parts: Int)
}

/// A fixed gang of threads that run the parts of a job together: the calling thread runs
/// part 0 and `helperCount` persistent helper threads run the rest.
///
/// Each helper waits on its own "go" semaphore and signals one shared "done" semaphore,
/// all made once, so dispatching a frame allocates nothing. The semaphores also order
/// memory: what the caller wrote before `run` is visible to the helpers, and what they
/// wrote is visible to the caller when `run` returns.
///
/// One gang serves one capture thread; `run` is not reentrant.
final class RenderWorkers: @unchecked Sendable {
    /// Threads working on a job, the caller included.
    let parts: Int
    private let go: [DispatchSemaphore]
    private let done = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    // Written by the caller before signalling `go`, read by helpers after waiting on it.
    private var job: (any ParallelJob)?
    private let quitting = Atomic<Bool>(false)

    /// The gang size for this process: one thread per core it may run on, at most `limit`.
    static func defaultParts(limit: Int = 2) -> Int {
        max(1, min(limit, usableCores()))
    }

    /// The cores this thread may run on: its affinity mask (`taskset`, a cpuset), which
    /// Foundation's `activeProcessorCount` ignores; all online cores if it cannot be read.
    static func usableCores() -> Int {
        let count = oc_usable_cores()
        return count > 0 ? Int(count) : ProcessInfo.processInfo.activeProcessorCount
    }

    /// Starts `parts − 1` helper threads named "`name`.<n>".
    init(parts: Int = RenderWorkers.defaultParts(), name: String) {
        self.parts = max(1, parts)
        go = (1..<self.parts).map { _ in DispatchSemaphore(value: 0) }
        for helper in 1..<self.parts {
            let thread = Thread { [self] in self.helperLoop(helper) }
            thread.name = "\(name).\(helper)"
            thread.start()
        }
    }

    /// Runs every part of `job` and returns when all are done.
    func run(_ job: any ParallelJob) {
        self.job = job
        for semaphore in go { semaphore.signal() }
        job.run(part: 0, of: parts)
        for _ in go { done.wait() }
        self.job = nil
    }

    /// Stops the helpers and waits until they have exited. Call once, not during `run`.
    func shutdown() {
        quitting.store(true, ordering: .releasing)
        for semaphore in go { semaphore.signal() }
        for _ in go { exited.wait() }
    }

    private func helperLoop(_ part: Int) {
        while true {
            go[part - 1].wait()
            if quitting.load(ordering: .acquiring) { break }
            job?.run(part: part, of: parts)
            done.signal()
        }
        exited.signal()
    }
}
