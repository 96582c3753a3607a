import Foundation
import Synchronization

/// Delivers the data of several data outputs (video, audio, metadata, depth) to one
/// delegate, lined up by timestamp (iOS 11).
///
/// The first output is the primary. Each of its buffers (a dropped frame too) is held until
/// every other output has delivered data at or after its timestamp, or is known to have
/// none (no active connection; a metadata output with no `metadataObjectTypes`; a depth
/// output, as no camera here delivers depth), and then goes out in one collection with the
/// data aligned with it: the audio buffer whose time range contains the frame's timestamp,
/// the metadata objects read from that very frame (`[]` when it held none). Other data that
/// came before it goes out first, each in a collection of its own, in timestamp order. A
/// primary buffer is held no longer than while `maximumHeldBuffers` newer ones wait (an
/// output that falls that far behind is left out of it), so held frames never starve the
/// camera's buffer pool.
///
/// While a delegate is set, the outputs' own delegates are not called (their delegate
/// properties keep what the app set); `setDelegate(nil, queue: nil)` gives them back.
/// Threads: the delegate is called on `delegateCallbackQueue` (use a serial queue), with
/// no lock held; every output's data reaches that queue first, so the lining up happens
/// there, in arrival order. The capture threads never wait for the synchronizer (in virtual
/// time too: devices in virtual time keep no common clock, so outputs of two devices line
/// up only in real time).
open class AVCaptureDataOutputSynchronizer: NSObject, @unchecked Sendable {
    private let outputs: [AVCaptureOutput]
    private let state = Mutex(State())
    /// Key-value observers of `delegate`.
    let synchronizerKeyValueObservers = KeyValueObserverRegistry(label: "dataOutputSynchronizer")

    /// How many primary buffers may wait for the other outputs at once.
    public static let maximumHeldBuffers = 4
    /// How many buffers of another output may wait for a primary buffer.
    static let maximumBufferedPerOutput = 64

    private struct Entry {
        let output: AVCaptureOutput
        let data: AVCaptureSynchronizedData
        /// How long the data lasts (an audio buffer's duration, a frame's duration).
        let span: CMTime
    }

    private struct State {
        weak var delegate: (any AVCaptureDataOutputSynchronizerDelegate)?
        var queue: DispatchQueue?
        var held: [Entry] = []
        var buffered: [ObjectIdentifier: [Entry]] = [:]
        var latest: [ObjectIdentifier: CMTime] = [:]
    }

    /// A synchronizer for `dataOutputs`, the first the primary. Raises
    /// `NSInvalidArgumentException` for an empty array, an output given twice or one that
    /// is not a video, audio, metadata or depth data output, as on iOS.
    public init(dataOutputs: [AVCaptureOutput]) {
        outputs = dataOutputs
        super.init()
        enforce {
            func invalid(_ text: String) -> AVCaptureException {
                AVCaptureException(.invalidArgument, selectorReason("AVCaptureDataOutputSynchronizer", "initWithDataOutputs:", text))
            }
            guard !dataOutputs.isEmpty else { throw invalid("dataOutputs must contain at least one data output") }
            guard Set(dataOutputs.map(ObjectIdentifier.init)).count == dataOutputs.count else { throw invalid("dataOutputs may not contain duplicates") }
            for output in dataOutputs where !Self.isDataOutput(output) {
                throw invalid("\(type(of: output)) is not a data output (AVCaptureVideoDataOutput, AVCaptureAudioDataOutput, AVCaptureMetadataOutput or AVCaptureDepthDataOutput)")
            }
        }
    }

    deinit {
        let owner = ObjectIdentifier(self)
        for output in outputs { output.releaseSynchronizer(owner) }
    }

    private static func isDataOutput(_ output: AVCaptureOutput) -> Bool {
        output is any SynchronizedDataSource
    }

    /// The outputs given to the initializer; the first is the primary.
    open var dataOutputs: [AVCaptureOutput] { outputs }

    /// The delegate (held weakly).
    open var delegate: (any AVCaptureDataOutputSynchronizerDelegate)? { state.withLock { $0.delegate } }

    /// The queue the delegate is called on.
    open var delegateCallbackQueue: DispatchQueue? { state.withLock { $0.queue } }

    /// Sets the delegate and its queue, taking over the outputs' delegates; nil and nil give
    /// the outputs their own delegates back. A delegate without a queue raises
    /// `NSInvalidArgumentException`, as on iOS.
    open func setDelegate(_ delegate: (any AVCaptureDataOutputSynchronizerDelegate)?, queue delegateCallbackQueue: DispatchQueue?) {
        enforce { try setDelegateChecked(delegate, queue: delegateCallbackQueue) }
    }

    /// The checked form of `setDelegate(_:queue:)` (Linux addition).
    public func setDelegateChecked(_ delegate: (any AVCaptureDataOutputSynchronizerDelegate)?, queue: DispatchQueue?) throws(AVCaptureException) {
        if delegate != nil && queue == nil {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureDataOutputSynchronizer", "setDelegate:queue:", "delegateCallbackQueue cannot be NULL with a non-nil delegate"))
        }
        let newDelegate = UncheckedSendable(delegate)
        let observed = KeyValueChange.willChange(self, keys: ["delegate"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        state.withLock {
            $0.delegate = newDelegate.value
            $0.queue = delegate == nil ? nil : queue
            $0.held = []
            $0.buffered = [:]
            $0.latest = [:]
        }
        let takeover = delegate.flatMap { _ in queue }.map { SynchronizerTakeover(synchronizer: self, queue: $0) }
        for output in outputs { output.setSynchronizerTakeover(takeover) }
    }

    // MARK: Lining up (on the delegate queue)

    /// Data from one of the outputs, on the delegate queue.
    func receive(_ data: AVCaptureSynchronizedData, span: CMTime, from output: AVCaptureOutput) {
        guard data.timestamp.isNumeric else { return }
        // Read the outputs' state before taking ours: no lock of theirs is held under ours.
        let idle = Set(outputs.dropFirst().filter { !$0.producesSynchronizedData }.map(ObjectIdentifier.init))
        let primaryIdle = !outputs[0].producesSynchronizedData
        let entry = Entry(output: output, data: data, span: span)
        let (delegate, collections) = state.withLock { s -> ((any AVCaptureDataOutputSynchronizerDelegate)?, [AVCaptureSynchronizedDataCollection]) in
            var out: [AVCaptureSynchronizedDataCollection] = []
            if output === outputs[0] {
                s.held.append(entry)
            } else {
                let id = ObjectIdentifier(output)
                s.latest[id] = max(s.latest[id] ?? data.timestamp, data.timestamp)
                if primaryIdle {
                    out.append(AVCaptureSynchronizedDataCollection([(output, data)]))
                } else {
                    s.buffered[id, default: []].append(entry)
                    if s.buffered[id]!.count > Self.maximumBufferedPerOutput {
                        let oldest = s.buffered[id]!.removeFirst()
                        out.append(AVCaptureSynchronizedDataCollection([(oldest.output, oldest.data)]))
                    }
                }
            }
            out += drain(&s, idle: idle)
            return (s.delegate, out)
        }
        guard let delegate else { return }
        for collection in collections { delegate.dataOutputSynchronizer(self, didOutput: collection) }
    }

    /// Sends every held primary buffer whose moment all other outputs have reached.
    private func drain(_ s: inout State, idle: Set<ObjectIdentifier>) -> [AVCaptureSynchronizedDataCollection] {
        var out: [AVCaptureSynchronizedDataCollection] = []
        let others = outputs.dropFirst()
        while let primary = s.held.first {
            let moment = primary.data.timestamp
            let overflow = s.held.count > Self.maximumHeldBuffers
            let reached = others.allSatisfy { output in
                let id = ObjectIdentifier(output)
                return idle.contains(id) || (s.latest[id].map { $0 >= moment } ?? false)
            }
            guard overflow || reached else { break }
            s.held.removeFirst()
            var aligned: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)] = [(primary.output, primary.data)]
            var alone: [Entry] = []
            for output in others {
                let id = ObjectIdentifier(output)
                guard var buffer = s.buffered[id], !buffer.isEmpty else { continue }
                let count = buffer.firstIndex { $0.data.timestamp > moment } ?? buffer.count
                let due = buffer[..<count]
                buffer.removeFirst(count)
                s.buffered[id] = buffer
                for (index, entry) in due.enumerated() {
                    let time = entry.data.timestamp
                    // The last one at or before the moment is aligned if it covers the moment
                    // (an audio buffer's range) or is the moment's own (a frame's metadata).
                    let covers = time == moment || (entry.span.isNumeric && moment < time + entry.span)
                    if index == due.count - 1 && covers {
                        aligned.append((entry.output, entry.data))
                    } else {
                        alone.append(entry)
                    }
                }
            }
            alone.sort { $0.data.timestamp < $1.data.timestamp }
            out += alone.map { AVCaptureSynchronizedDataCollection([($0.output, $0.data)]) }
            out.append(AVCaptureSynchronizedDataCollection(aligned))
        }
        return out
    }
}

/// A synchronizer's hold on an output: the output hands its data to the synchronizer on
/// this queue instead of calling its own delegate.
struct SynchronizerTakeover: @unchecked Sendable {
    weak var synchronizer: AVCaptureDataOutputSynchronizer?
    let owner: ObjectIdentifier
    let queue: DispatchQueue

    init(synchronizer: AVCaptureDataOutputSynchronizer, queue: DispatchQueue) {
        self.synchronizer = synchronizer
        owner = ObjectIdentifier(synchronizer)
        self.queue = queue
    }
}

/// Key-value observation of `delegate` (Apple: observable), notified on the thread that
/// calls `setDelegate(_:queue:)`, before it returns.
extension AVCaptureDataOutputSynchronizer: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { synchronizerKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureDataOutputSynchronizer.self))

    static func observableKeys<Root: AVCaptureDataOutputSynchronizer>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.delegate, "delegate") { $0 === $1 }]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDataOutputSynchronizer {
    /// Observes `delegate` (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDataOutputSynchronizer.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
