import Foundation

/// The app's audio session, as iOS capture code configures it.
///
/// Linux has no system audio policy: no other app is interrupted, ducked or mixed with, and
/// nothing outside the process changes when the category, mode or activation does. What each
/// call changes here:
/// - `setCategory`/`setMode` keep the values (refusing Apple's invalid combinations with
///   `ErrorCode.badParam`) and decide the route: record categories (`.record`,
///   `.playAndRecord`, `.multiRoute`) route the preferred input, or else the default audio
///   device; other categories have no inputs and an empty `availableInputs`. A category change
///   that adds or removes the input posts `routeChangeNotification` (`.categoryChange`).
/// - `setPreferredInput` picks the microphone: that device becomes
///   `AVCaptureDevice.default(for: .audio)`. Only ports of `availableInputs` are accepted.
/// - `setPreferredSampleRate`, `setPreferredIOBufferDuration` and
///   `setPreferredInputNumberOfChannels` keep the preference; the hardware values
///   (`sampleRate`, `ioBufferDuration`, `inputNumberOfChannels`) stay what the microphone
///   delivers (48 kHz mono, 1024-frame buffers for the simulated one), as iOS keeps the
///   hardware's when it cannot honour a preference.
/// - The input gain is not settable (`isInputGainSettable` false; OpenCapture drives no
///   mixer): `inputGain` is 1, samples arrive as the card captured them.
/// - Microphones appearing or going post `routeChangeNotification` (`.newDeviceAvailable`,
///   `.oldDeviceUnavailable`); the route's input going while the session is active also
///   posts `interruptionNotification` (began, `.routeDisconnected`) when the app opted in
///   with `setPrefersInterruptionOnRouteDisconnect(true)`, as iOS 17 does.
/// - `recordPermission` is `.granted` unless a sound card's node exists that this process
///   may not open (not in the `audio` group): then `.denied`, as `AVCaptureDevice`'s
///   authorization for audio.
///
/// Threads: every member may be used from any thread; notifications are posted on the main
/// queue; permission handlers run on an arbitrary queue.
open class AVAudioSession: NSObject, @unchecked Sendable {
    private static let shared = AVAudioSession()

    /// The app's one audio session.
    open class func sharedInstance() -> AVAudioSession { shared }

    private struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options: CategoryOptions = []
        var isActive = false
        var preferredInputUID: String?
        var preferredSampleRate = 0.0
        var preferredIOBufferDuration = 0.0
        var preferredInputNumberOfChannels = 0
        var prefersInterruptionOnRouteDisconnect = false
        var prefersNoInterruptionsFromSystemAlerts = false
        var allowHapticsAndSystemSoundsDuringRecording = false
        var supportsMultichannelContent = false
        var ioType = IOType.notSpecified
    }

    private let state = Mutex(State())

    private override init() { super.init() }

    static func error(_ code: ErrorCode) -> NSError { NSError(domain: NSOSStatusErrorDomain, code: code.rawValue) }

    // MARK: Category and mode

    /// The categories this system offers: all but the deprecated `.audioProcessing`.
    open var availableCategories: [Category] { [.ambient, .soloAmbient, .playback, .record, .playAndRecord, .multiRoute] }
    /// The modes this system offers.
    open var availableModes: [Mode] {
        [.default, .voiceChat, .gameChat, .videoRecording, .measurement, .moviePlayback, .videoChat, .spokenAudio, .voicePrompt]
    }

    /// The category; `.soloAmbient` until one is set.
    open var category: Category { state.withLock { $0.category } }
    /// The category's options.
    open var categoryOptions: CategoryOptions { state.withLock { $0.options } }
    /// The mode; `.default` until one is set.
    open var mode: Mode { state.withLock { $0.mode } }

    /// Sets the category (options cleared; the mode kept if the category takes it, else `.default`).
    open func setCategory(_ category: Category) throws {
        try apply(category, mode: nil, options: [])
    }

    /// Sets the category and its options (the mode as for `setCategory(_:)`).
    open func setCategory(_ category: Category, options: CategoryOptions) throws {
        try apply(category, mode: nil, options: options)
    }

    /// Sets category, mode and options together.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        try apply(category, mode: mode, options: options)
    }

    /// Sets the mode; a mode the category does not take is a bad parameter.
    open func setMode(_ mode: Mode) throws {
        let category = self.category
        guard Self.accepts(category, mode) else { throw Self.error(.badParam) }
        state.withLock { $0.mode = mode }
    }

    private func apply(_ category: Category, mode: Mode?, options: CategoryOptions) throws {
        guard availableCategories.contains(category), Self.accepts(category, options) else { throw Self.error(.badParam) }
        let before = currentRoute
        try state.withLock { s throws(NSError) in
            // A kept mode the new category does not take falls back to the default mode; a
            // mode given with the category must fit it.
            let newMode = mode ?? (Self.accepts(category, s.mode) ? s.mode : .default)
            guard Self.accepts(category, newMode) else { throw Self.error(.badParam) }
            s.category = category
            s.mode = newMode
            // Ducking others and interrupting spoken audio make the session mixable, as on iOS.
            s.options = options.intersection([.duckOthers]).isEmpty ? options : options.union(.mixWithOthers)
        }
        if before.inputs.map(\.uid) != currentRoute.inputs.map(\.uid) { postRouteChange(.categoryChange, previous: before) }
    }

    /// Apple's rules for options (AVAudioSessionTypes.h): which categories each is valid with.
    static func accepts(_ category: Category, _ options: CategoryOptions) -> Bool {
        let mixable: Set<Category> = [.playAndRecord, .playback, .multiRoute]
        if options.contains(.mixWithOthers) && !mixable.contains(category) && !options.contains(.duckOthers) { return false }
        if options.contains(.duckOthers) && !(mixable.contains(category) || category == .ambient) { return false }
        if options.contains(.interruptSpokenAudioAndMixWithOthers) && !mixable.contains(category) { return false }
        if options.contains(.allowBluetooth) && !(category == .playAndRecord || category == .record) { return false }
        if options.contains(.defaultToSpeaker) && category != .playAndRecord { return false }
        if options.contains(.allowBluetoothA2DP) && (category == .record || category == .multiRoute) { return false }
        if options.contains(.allowAirPlay) && category != .playAndRecord { return false }
        if options.contains(.overrideMutedMicrophoneInterruption) && !(category == .playAndRecord || category == .multiRoute) { return false }
        return true
    }

    /// Apple's rules for modes: chat modes need play-and-record, video recording a record
    /// category, movie playback and spoken audio playback.
    static func accepts(_ category: Category, _ mode: Mode) -> Bool {
        switch mode {
        case .voiceChat, .gameChat, .videoChat: category == .playAndRecord
        case .videoRecording: category == .playAndRecord || category == .record
        case .moviePlayback, .spokenAudio: category == .playback
        default: true
        }
    }

    // MARK: Activation

    /// Whether the session was activated (Linux addition; iOS does not expose it).
    public var isActive: Bool { state.withLock { $0.isActive } }

    /// Activates or deactivates the session. Nothing else on Linux is told: no other audio
    /// is interrupted, and `.notifyOthersOnDeactivation` has nobody to notify.
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        state.withLock { $0.isActive = active }
    }

    // MARK: Permission

    /// Whether the user allowed recording: see the type's notes.
    @available(*, deprecated, message: "Please use AVAudioApplication recordPermission")
    open var recordPermission: RecordPermission {
        AVCaptureDevice.authorizationStatus(for: .audio) == .authorized ? .granted : .denied
    }

    /// Asks for permission to record; `response` runs on an arbitrary queue with the answer.
    @available(*, deprecated, message: "Please use AVAudioApplication requestRecordPermissionWithCompletionHandler")
    open func requestRecordPermission(_ response: @escaping (Bool) -> Void) {
        let granted = AVCaptureDevice.authorizationStatus(for: .audio) == .authorized
        // Not @Sendable in Apple's header: the block runs once on another queue, as on iOS.
        let caller = UncheckedSendable(response)
        DispatchQueue.global().async { caller.value(granted) }
    }

    // MARK: Inputs and route

    /// The microphones a record category can route from; empty for other categories.
    open var availableInputs: [AVAudioSessionPortDescription]? {
        category.hasInput ? Self.microphones().map { Self.port(for: $0) } : []
    }

    /// The preferred input, if one is set and still connected.
    open var preferredInput: AVAudioSessionPortDescription? {
        guard let uid = state.withLock({ $0.preferredInputUID }) else { return nil }
        return Self.microphones().first { $0.uniqueID == uid }.map { Self.port(for: $0) }
    }

    /// Picks the microphone (nil clears the choice): it becomes the route's input and
    /// `AVCaptureDevice.default(for: .audio)`. A port not among `availableInputs` is a bad parameter.
    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        if let inPort, !Self.microphones().contains(where: { $0.uniqueID == inPort.uid }) { throw Self.error(.badParam) }
        let before = currentRoute
        state.withLock { $0.preferredInputUID = inPort?.uid }
        if before.inputs.map(\.uid) != currentRoute.inputs.map(\.uid) { postRouteChange(.override, previous: before) }
    }

    /// The route audio takes now: see `AVAudioSessionRouteDescription`.
    open var currentRoute: AVAudioSessionRouteDescription {
        AVAudioSessionRouteDescription(inputs: category.hasInput ? routeDevice.map { [Self.port(for: $0)] } ?? [] : [])
    }

    /// The microphone the route takes: the preferred input, else the default microphone.
    private var routeDevice: AVCaptureDevice? {
        preferredMicrophone ?? DeviceRegistry.current.defaultMicrophone
    }

    /// The preferred microphone, if connected (`AVCaptureDevice.default(for: .audio)` asks).
    var preferredMicrophone: AVCaptureDevice? {
        guard let uid = state.withLock({ $0.preferredInputUID }) else { return nil }
        return Self.microphones().first { $0.uniqueID == uid }
    }

    static func microphones() -> [AVCaptureDevice] { DeviceRegistry.current.connected.filter { $0.hasMediaType(.audio) } }

    static func port(for device: AVCaptureDevice) -> AVAudioSessionPortDescription {
        let type: Port =
            switch (device.backend as? any AudioPortDescribing)?.audioPortKind ?? .builtInMicrophone {
            case .builtInMicrophone: .builtInMic
            case .virtual: .virtual
            case .usb: .usbAudio
            case .pci: .PCI
            case .lineIn: .lineIn
            }
        return AVAudioSessionPortDescription(portType: type, portName: device.localizedName, uid: device.uniqueID)
    }

    // MARK: Hardware values

    private var routeFormat: AudioStreamBasicDescription? {
        routeDevice?.formats.first?.formatDescription.audioStreamBasicDescription
    }

    /// The input's sample rate (48 000 for the simulated microphone); 0 without a microphone.
    open var sampleRate: Double { routeFormat?.mSampleRate ?? 0 }
    /// Channels of the route's input; 0 when the category records nothing.
    open var inputNumberOfChannels: Int { category.hasInput ? Int(routeFormat?.mChannelsPerFrame ?? 0) : 0 }
    /// The most input channels the route can take: the channels the microphone delivers.
    open var maximumInputNumberOfChannels: Int { inputNumberOfChannels }
    /// Output channels: none, OpenCapture plays no audio.
    open var outputNumberOfChannels: Int { 0 }
    /// Output channels the route can take: none.
    open var maximumOutputNumberOfChannels: Int { 0 }
    /// One buffer's duration: 1024 frames over the input's rate (21.3 ms at 48 kHz).
    open var ioBufferDuration: TimeInterval {
        guard let rate = routeFormat?.mSampleRate, rate > 0, let device = routeDevice else { return 0 }
        let frames = (device.backend as? any AudioPortDescribing)?.framesPerBuffer ?? Self.framesPerBuffer
        return Double(frames) / rate
    }
    /// Frames in a buffer of a microphone that does not say (`AudioPortDescribing`): an iPhone's 1024.
    static let framesPerBuffer = 1024
    /// Latency of the input hardware beyond the buffer: unknown to ALSA's API, reported as 0.
    open var inputLatency: TimeInterval { 0 }
    /// Latency of the output: no output.
    open var outputLatency: TimeInterval { 0 }
    /// Whether an input exists (the simulated microphone at least, while connected).
    open var isInputAvailable: Bool { !Self.microphones().isEmpty }
    /// Whether other audio plays: Linux tells no app about another's audio.
    open var isOtherAudioPlaying: Bool { false }
    /// Whether to silence secondary audio: never, no other app's audio is known.
    open var secondaryAudioShouldBeSilencedHint: Bool { false }
    /// The output volume: OpenCapture plays no audio and reads no mixer; full scale.
    open var outputVolume: Float { 1 }

    // MARK: Preferences

    /// The preferred sample rate; 0 until set. The microphones keep their own rate.
    open var preferredSampleRate: Double { state.withLock { $0.preferredSampleRate } }
    /// Keeps the preference (negative rates are a bad parameter).
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        guard sampleRate >= 0, sampleRate.isFinite else { throw Self.error(.badParam) }
        state.withLock { $0.preferredSampleRate = sampleRate }
    }

    /// The preferred I/O buffer duration; 0 until set. The microphones keep their own buffers.
    open var preferredIOBufferDuration: TimeInterval { state.withLock { $0.preferredIOBufferDuration } }
    /// Keeps the preference (negative durations are a bad parameter).
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        guard duration >= 0, duration.isFinite else { throw Self.error(.badParam) }
        state.withLock { $0.preferredIOBufferDuration = duration }
    }

    /// The preferred number of input channels; 0 until set.
    open var preferredInputNumberOfChannels: Int { state.withLock { $0.preferredInputNumberOfChannels } }
    /// Keeps the preference; more than `maximumInputNumberOfChannels` (or fewer than 0) is a bad parameter.
    open func setPreferredInputNumberOfChannels(_ count: Int) throws {
        guard count >= 0, count <= max(1, maximumInputNumberOfChannels) else { throw Self.error(.badParam) }
        state.withLock { $0.preferredInputNumberOfChannels = count }
    }

    /// The input gain, 0...1: 1, samples arrive as captured (see `isInputGainSettable`).
    open var inputGain: Float { 1 }
    /// Whether `setInputGain` works: no, OpenCapture drives no mixer.
    open var isInputGainSettable: Bool { false }
    /// Setting the gain fails as on a port without gain control (`ErrorCode.unspecified`).
    open func setInputGain(_ gain: Float) throws { throw Self.error(.unspecified) }

    /// Whether a route disconnecting interrupts the session (default false, as for apps
    /// that are not Now Playing apps on iOS 17).
    open var prefersInterruptionOnRouteDisconnect: Bool { state.withLock { $0.prefersInterruptionOnRouteDisconnect } }
    /// Opts in to (or out of) the interruption when the route's input goes away.
    open func setPrefersInterruptionOnRouteDisconnect(_ inValue: Bool) throws {
        state.withLock { $0.prefersInterruptionOnRouteDisconnect = inValue }
    }

    /// Whether the session asked not to be interrupted by alerts (Linux has none).
    open var prefersNoInterruptionsFromSystemAlerts: Bool { state.withLock { $0.prefersNoInterruptionsFromSystemAlerts } }
    open func setPrefersNoInterruptionsFromSystemAlerts(_ inValue: Bool) throws {
        state.withLock { $0.prefersNoInterruptionsFromSystemAlerts = inValue }
    }

    /// Whether system sounds may play while recording (Linux plays none).
    open var allowHapticsAndSystemSoundsDuringRecording: Bool { state.withLock { $0.allowHapticsAndSystemSoundsDuringRecording } }
    open func setAllowHapticsAndSystemSoundsDuringRecording(_ inValue: Bool) throws {
        state.withLock { $0.allowHapticsAndSystemSoundsDuringRecording = inValue }
    }

    /// Whether the app supplies multichannel content (kept; OpenCapture plays nothing).
    open var supportsMultichannelContent: Bool { state.withLock { $0.supportsMultichannelContent } }
    open func setSupportsMultichannelContent(_ inValue: Bool) throws {
        state.withLock { $0.supportsMultichannelContent = inValue }
    }

    /// Aggregated I/O is valid only with `.playAndRecord` and `.multiRoute` (else a bad parameter).
    open func setAggregatedIOPreference(_ inIOType: IOType) throws {
        guard inIOType == .notSpecified || category == .playAndRecord || category == .multiRoute else { throw Self.error(.badParam) }
        state.withLock { $0.ioType = inIOType }
    }

    /// Routes output to the speaker: OpenCapture has no output, so only `.none` and, with
    /// `.playAndRecord`, `.speaker` are accepted (and change nothing).
    open func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
        guard portOverride == .none || category == .playAndRecord else { throw Self.error(.badParam) }
    }

    // MARK: Hot-plug

    /// Microphones came or went (the device registry calls this, off any lock).
    func microphonesChanged(added: [AVCaptureDevice], removed: [AVCaptureDevice]) {
        let (preferred, active, interrupts, records) = state.withLock {
            ($0.preferredInputUID, $0.isActive, $0.prefersInterruptionOnRouteDisconnect, $0.category.hasInput)
        }
        if !removed.isEmpty {
            // The route before: the removed microphone if it was the one routed from.
            let was = removed.first { $0.uniqueID == preferred } ?? (preferredMicrophone == nil ? removed.first : nil)
            let previous = AVAudioSessionRouteDescription(inputs: records ? was.map { [Self.port(for: $0)] } ?? currentRoute.inputs : [])
            postRouteChange(.oldDeviceUnavailable, previous: previous)
            if was != nil && active && interrupts && records {
                postOnMainQueue(Self.interruptionNotification, object: self, userInfo: [
                    AVAudioSessionInterruptionTypeKey: NSNumber(value: InterruptionType.began.rawValue),
                    AVAudioSessionInterruptionReasonKey: NSNumber(value: InterruptionReason.routeDisconnected.rawValue),
                ])
            }
        }
        if !added.isEmpty { postRouteChange(.newDeviceAvailable, previous: currentRoute) }
    }

    private func postRouteChange(_ reason: RouteChangeReason, previous: AVAudioSessionRouteDescription) {
        postOnMainQueue(Self.routeChangeNotification, object: self, userInfo: [
            AVAudioSessionRouteChangeReasonKey: NSNumber(value: reason.rawValue),
            AVAudioSessionRouteChangePreviousRouteKey: previous,
        ])
    }
}
