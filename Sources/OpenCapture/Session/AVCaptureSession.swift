import Foundation
import Synchronization

/// Coordinates the flow of frames from inputs to outputs.
///
/// Configuration calls are serialised by one lock. Between `beginConfiguration()` and the
/// outermost `commitConfiguration()` changes are recorded but not applied to running
/// devices; they take effect together at the commit. `startRunning()` and `stopRunning()`
/// block until the devices have started or stopped; call them off the main thread, as on iOS.
///
/// Threads: every method may be called from any thread. Notifications (`didStartRunning`,
/// `didStopRunning`, `runtimeError`, interruptions) are posted on the main queue. The
/// configuration lock is never held while user code runs or is waited for, so a delegate
/// may reconfigure the session, and even stop it, from its callback.
open class AVCaptureSession: NSObject, @unchecked Sendable {
    /// Serialises configuration; recursive so callbacks from devices can re-enter. Never held
    /// while waiting for user code (see `ConfigurationLock`).
    let configurationLock = ConfigurationLock()
    let model = Mutex<Model>(Model())
    /// Owns the run: its state, epoch and device streams (see `SessionRun`).
    let runner = SessionRunner()
    /// Devices interrupted by system pressure and the watchers that resume them.
    let interruptions = InterruptionTracker()
    /// Key-value observers of the session.
    let sessionKeyValueObservers = KeyValueObserverRegistry(label: "session")

    struct Model {
        var preset: Preset = .high
        var inputs: [AVCaptureInput] = []
        var outputs: [AVCaptureOutput] = []
        var connections: [AVCaptureConnection] = []
        /// Preview layers showing this session (weak: a layer owns its session, not the reverse).
        var previewLayers: [WeakPreviewLayer] = []
        var configurationDepth = 0
        var needsApply = false
        /// `isMultitaskingCameraAccessEnabled` (false; true is refused where unsupported).
        var multitaskingCameraAccessEnabled = false
        var audioSession = ApplicationAudioSessionOptions()
        /// The controls delegate (weak, as Apple's) and its queue.
        var controlsDelegate: WeakControlsDelegate = WeakControlsDelegate()
        var controlsDelegateQueue: DispatchQueue?
        /// The controls added, and what control surfaces show of them (see `+Controls`).
        var controls: [AVCaptureControl] = []
        var controlSurfaces = 0
        var controlsActive = false
        var controlsFullscreen = false
        /// Deferred start (iOS 26): whether it runs by itself, where this run stands with it,
        /// whether the app asked for it before starting, and the delegate (weak) and its queue.
        var automaticallyRunsDeferredStart = true
        var deferredStart = DeferredStartState.idle
        var deferredStartRequested = false
        var deferredStartDelegate = WeakDeferredStartDelegate()
        var deferredStartDelegateQueue: DispatchQueue?
    }

    public override init() {
        super.init()
        // Connections' isActive and preview layers' isPreviewing follow the session: watched
        // with it, announced with it (each check is one atomic load when nobody observes).
        configurationLock.watch(self) { [weak self] in
            guard let self else { return [] }
            let (connections, layers, outputs) = model.withLock { ($0.connections, $0.previewLayers.compactMap(\.layer), $0.outputs) }
            return connections.compactMap { KeyValueChange.watch($0, keys: ["active"]) }
                + layers.compactMap { KeyValueChange.watch($0, keys: ["previewing", "connection"]) }
                + outputs.compactMap { $0.consumer?.watchKeysFollowingSession() }
        }
    }

    /// Outputs and connections refer to each other; a session going away ends its
    /// connections, as Apple's does, so its outputs and the frames they still hold are freed
    /// (a V4L2 device's mapped buffers stay busy while anything holds a frame).
    deinit {
        for connection in model.withLock({ $0.connections }) { connection.output?.remove(connection) }
    }

    // MARK: State

    /// Whether the session is running.
    open var isRunning: Bool { runner.isRunning }
    /// Whether the session is interrupted (system pressure, device in use).
    open var isInterrupted: Bool { interruptions.isInterrupted }
    /// The inputs, in the order they were added.
    open var inputs: [AVCaptureInput] { model.withLock { $0.inputs } }
    /// The outputs, in the order they were added.
    open var outputs: [AVCaptureOutput] { model.withLock { $0.outputs } }
    /// All connections between inputs and outputs (iOS 13).
    open var connections: [AVCaptureConnection] { model.withLock { $0.connections } }
    /// The clock every output timestamp is on: the host clock (CLOCK_MONOTONIC).
    open var synchronizationClock: CMClock? { CMClockGetHostTimeClock() }
    /// The former name of `synchronizationClock`.
    open var masterClock: CMClock? { synchronizationClock }
    /// The share of the hardware the configuration needs; one camera never exceeds 1.
    open var hardwareCost: Float { 0 }
    /// Whether the session runs several cameras at once (`AVCaptureMultiCamSession`).
    var runsSeveralCameras: Bool { false }
    /// Whether the session configures devices for wide colour (default true).
    open var automaticallyConfiguresCaptureDeviceForWideColor = true

    // MARK: Presets

    /// The quality preset (default `.high`). Setting a preset the inputs cannot serve raises.
    open var sessionPreset: Preset {
        get { model.withLock { $0.preset } }
        set { enforce { try setSessionPreset(newValue) } }
    }

    /// Whether every video input can serve the preset.
    open func canSetSessionPreset(_ preset: Preset) -> Bool {
        guard Preset.allPresets.contains(preset) else { return false }
        return deviceInputs.allSatisfy { $0.device.supportsSessionPreset(preset) }
    }

    /// The checked form of setting `sessionPreset` (Linux addition).
    public func setSessionPreset(_ preset: Preset) throws(AVCaptureException) {
        guard canSetSessionPreset(preset) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSession", "setSessionPreset:",
                    "Unsupported session preset \(preset.rawValue) - use -canSetSessionPreset: to check"))
        }
        withConfiguration {
            model.withLock { $0.preset = preset }
            if preset != .inputPriority {
                for input in deviceInputs { input.device.applyPreset(preset) }
            }
        }
    }

    /// The camera inputs (everything video-shaped: presets, formats, streams).
    var deviceInputs: [AVCaptureDeviceInput] { inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { !$0.device.core.isAudio } }
    /// The microphone inputs (one at most).
    var audioInputs: [AVCaptureDeviceInput] { inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { $0.device.core.isAudio } }

    // MARK: Entry points apps override
    // Apple's are open; Swift cannot override a member declared in an extension, so the ones
    // test doubles and wrappers override live here (the rest of the graph is in +Graph).

    /// Starts the flow of frames and blocks until the devices stream. A failure is reported
    /// through `runtimeErrorNotification`, as on iOS. Calling it inside a configuration
    /// transaction raises.
    open func startRunning() {
        enforce { try startRunningChecked() }
    }

    /// Stops the flow of frames and blocks until it has stopped: once it returns, no
    /// delegate receives another frame.
    open func stopRunning() {
        enforce { try stopRunningChecked() }
    }

    /// Whether the input can be added: not in another session, its device not already
    /// used here, only one camera per session, and the device serves the current preset.
    open func canAddInput(_ input: AVCaptureInput) -> Bool {
        (try? validateAddInput(input)) != nil
    }

    /// Adds an input and connects it to every output that can take it. Raises if `canAddInput` is false.
    open func addInput(_ input: AVCaptureInput) {
        enforce { try addInputChecked(input) }
    }

    /// Whether the output can be added: it is in no session, and the session has no other
    /// photo, movie or metadata output (video data outputs may be several, as since iOS 16).
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        // An output the routers cannot feed (a depth output) is refused.
        guard output.session == nil, let consumer = output.consumer else { return false }
        // One still output (a photo output or the older still image output), one movie
        // output, one metadata output.
        guard let kind = consumer.soleKindInSession else { return true }
        return !outputs.contains { $0.consumer?.soleKindInSession == kind }
    }

    /// Adds an output and connects it to the camera input. Raises if `canAddOutput` is false.
    open func addOutput(_ output: AVCaptureOutput) {
        enforce { try addOutputChecked(output) }
    }

    /// Removes an input and its connections.
    open func removeInput(_ input: AVCaptureInput) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard inputs.contains(where: { $0 === input }) else { return }
        withConfiguration {
            for connection in connections where connection.inputPorts.contains(where: { $0.input === input }) {
                removeConnectionUnchecked(connection)
            }
            model.withLock { $0.inputs.removeAll { $0 === input } }
            (input as? AVCaptureDeviceInput)?.device.detach(from: self)
            (input as? AVCaptureMetadataInput)?.session = nil
        }
    }

    /// Removes an output and its connections.
    open func removeOutput(_ output: AVCaptureOutput) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard outputs.contains(where: { $0 === output }) else { return }
        withConfiguration {
            for connection in output.connections { removeConnectionUnchecked(connection) }
            model.withLock { $0.outputs.removeAll { $0 === output } }
            output.attach(to: nil)
        }
        if let wait = output.consumer?.closeInbox() { configurationLock.afterUnlock(wait) }
    }

    // MARK: Transactions

    /// Starts a group of changes applied together at the outermost `commitConfiguration()`.
    open func beginConfiguration() {
        configurationLock.lock()
        model.withLock { $0.configurationDepth += 1 }
        configurationLock.unlock()
    }

    /// Ends a group of changes; the outermost commit applies them to the running devices.
    open func commitConfiguration() {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        let apply = model.withLock { model -> Bool in
            guard model.configurationDepth > 0 else { return false }
            model.configurationDepth -= 1
            return model.configurationDepth == 0 && model.needsApply
        }
        if apply { applyConfiguration() }
        // Preparations asked for inside the transaction wait for its outermost commit.
        settleOutputs()
    }

    /// Whether a transaction is open (Linux addition, for diagnostics).
    public var isConfiguring: Bool { model.withLock { $0.configurationDepth > 0 } }

    /// Runs a change under the configuration lock and applies it unless a transaction is open.
    func withConfiguration(_ change: () -> Void) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        change()
        let deferred = model.withLock { model -> Bool in
            model.needsApply = true
            return model.configurationDepth > 0
        }
        if !deferred { applyConfiguration() }
    }

    // MARK: Callbacks from devices, outputs and connections

    package func deviceDidChangeActiveFormat(_ device: AVCaptureDevice) {
        withConfiguration { model.withLock { $0.preset = .inputPriority } }
    }

    package func deviceDidChangeFrameDurations(_ device: AVCaptureDevice) {
        // Only a running session has a stream to bring in line. A session that is not
        // running (another test's or app's, still holding the device as an input) must not
        // re-apply its configuration: its automatic wide colour would undo the colour space
        // the app just set on the device for the session it is about to start.
        guard isRunning else { return }
        withConfiguration {}
    }

    func outputDidChangeSettings(_ output: AVCaptureOutput) { withConfiguration {} }

    func inputDidChangeFrameDurationOverride(_ input: AVCaptureDeviceInput) { withConfiguration {} }

    func connectionDidChange(_ connection: AVCaptureConnection) { withConfiguration {} }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureSession+Controls.swift)

    /// Whether session controls are supported on this platform: true on Linux, where control
    /// surfaces present them.
    open var supportsControls: Bool { true }

    /// The most controls the session takes (Linux: 6; Apple does not document an iPhone's
    /// number).
    open var maxControlsCount: Int { 6 }

    /// The controls added to the session, in the order added.
    open var controls: [AVCaptureControl] { model.withLock { $0.controls } }

    /// Whether the control can be added: the session has room for it, it is not already in
    /// a session, and (sliders and pickers) it has an action and action queue, as Apple
    /// requires.
    open func canAddControl(_ control: AVCaptureControl) -> Bool {
        (try? validateAddControl(control)) != nil
    }

    /// Adds a control. Raises `NSInvalidArgumentException` when `canAddControl(_:)` is false.
    /// May be called while the session runs.
    open func addControl(_ control: AVCaptureControl) {
        enforce { try addControlChecked(control) }
    }

    /// Removes a control from the session; one the session does not hold is left alone.
    /// May be called while the session runs.
    open func removeControl(_ control: AVCaptureControl) {
        let held = control.membership.withLock { membership -> Bool in
            guard membership.session === self else { return false }
            membership.session = nil
            return true
        }
        guard held else { return }
        updateControls { $0.controls.removeAll { $0 === control } }
    }

    /// Sets the delegate that hears about the controls and the queue it is called on.
    ///
    /// A delegate with a nil queue raises `NSInvalidArgumentException`, as on iOS; a nil
    /// delegate may have a nil queue. The delegate is held weakly. Controls are active only
    /// while a delegate is set.
    open func setControlsDelegate(_ controlsDelegate: (any AVCaptureSessionControlsDelegate)?, queue controlsDelegateCallbackQueue: DispatchQueue?) {
        enforce { try setControlsDelegateChecked(controlsDelegate, queue: controlsDelegateCallbackQueue) }
    }

    /// The controls delegate, if it is still alive.
    open var controlsDelegate: (any AVCaptureSessionControlsDelegate)? {
        model.withLock { $0.controlsDelegate.value }
    }

    /// The queue the controls delegate is called on.
    open var controlsDelegateCallbackQueue: DispatchQueue? {
        model.withLock { $0.controlsDelegateQueue }
    }

    // Members the extension files implement, open here as Apple's are (Swift cannot
    // override what an extension declares); each forwards to its `…Backing`.

    // MARK: +AudioSession

    /// Whether the session uses the app's shared audio session (default true); false means
    /// a private one on iOS.
    open var usesApplicationAudioSession: Bool {
        get { usesApplicationAudioSessionBacking }
        set { usesApplicationAudioSessionBacking = newValue }
    }

    /// Whether the session configures the app's shared audio session for recording (default
    /// true). Takes effect only while `usesApplicationAudioSession` is true.
    open var automaticallyConfiguresApplicationAudioSession: Bool {
        get { automaticallyConfiguresApplicationAudioSessionBacking }
        set { automaticallyConfiguresApplicationAudioSessionBacking = newValue }
    }

    /// Whether the session configures the app's audio session to mix with other apps' audio
    /// (iOS 18; default false). No effect while `usesApplicationAudioSession` is false.
    open var configuresApplicationAudioSessionToMixWithOthers: Bool {
        get { configuresApplicationAudioSessionToMixWithOthersBacking }
        set { configuresApplicationAudioSessionToMixWithOthersBacking = newValue }
    }

    /// Whether the session opts the app's audio session in to Bluetooth high-quality
    /// recording (iOS 26; default false). No effect while `usesApplicationAudioSession` is
    /// false.
    open var configuresApplicationAudioSessionForBluetoothHighQualityRecording: Bool {
        get { configuresApplicationAudioSessionForBluetoothHighQualityRecordingBacking }
        set { configuresApplicationAudioSessionForBluetoothHighQualityRecordingBacking = newValue }
    }


    // MARK: +DeferredStart

    /// Whether `automaticallyRunsDeferredStart` may be set to false: true on Linux.
    open var isManualDeferredStartSupported: Bool { isManualDeferredStartSupportedBacking }

    /// Whether the session runs deferred start by itself after starting (default true, as
    /// for apps linked against iOS 26). When false, deferred outputs wait for
    /// `runDeferredStartWhenNeeded()`.
    open var automaticallyRunsDeferredStart: Bool {
        get { automaticallyRunsDeferredStartBacking }
        set { automaticallyRunsDeferredStartBacking = newValue }
    }

    /// Starts the deferred outputs now if the session is running and has not started them;
    /// before `startRunning()`, makes the next start run it right away. Returns at once;
    /// the outputs start on an internal queue.
    open func runDeferredStartWhenNeeded() { runDeferredStartWhenNeededBacking() }

    /// The delegate told about deferred start, if it is still alive.
    open var deferredStartDelegate: (any AVCaptureSessionDeferredStartDelegate)? { deferredStartDelegateBacking }

    /// The queue the deferred-start delegate is called on.
    open var deferredStartDelegateCallbackQueue: DispatchQueue? { deferredStartDelegateCallbackQueueBacking }

    /// Sets the deferred-start delegate (kept weakly) and its queue. A delegate without a
    /// queue raises `NSInvalidArgumentException`, as on iOS.
    open func setDeferredStartDelegate(
        _ deferredStartDelegate: (any AVCaptureSessionDeferredStartDelegate)?, deferredStartDelegateCallbackQueue: DispatchQueue?
    ) { setDeferredStartDelegateBacking(deferredStartDelegate, deferredStartDelegateCallbackQueue: deferredStartDelegateCallbackQueue) }

    // MARK: +Graph

    /// Adds an input without connecting it.
    open func addInputWithNoConnections(_ input: AVCaptureInput) { addInputWithNoConnectionsBacking(input) }

    /// Adds an output without connecting it.
    open func addOutputWithNoConnections(_ output: AVCaptureOutput) { addOutputWithNoConnectionsBacking(output) }

    /// Whether the connection can be added: its ports' input and its output are in this
    /// session and the output has room for it; or, for a preview connection, its layer
    /// shows this session and has no connection yet.
    open func canAddConnection(_ connection: AVCaptureConnection) -> Bool { canAddConnectionBacking(connection) }

    /// Adds a connection made with `AVCaptureConnection(inputPorts:output:)`. Raises if it can't be added.
    open func addConnection(_ connection: AVCaptureConnection) { addConnectionBacking(connection) }

    /// Removes a connection.
    open func removeConnection(_ connection: AVCaptureConnection) { removeConnectionBacking(connection) }

    // MARK: +Multitasking

    /// Whether the session can be configured to use the camera while multitasking (iOS 16).
    ///
    /// Always false on Linux, as on an iPhone: Apple answers true only on iPads that run
    /// Stage Manager with an extended display, for video-conferencing apps (`voip`
    /// background mode) linked on iOS 18, with the multitasking-camera-access entitlement,
    /// and on Apple TV. A Linux process has no multitasking model that could interrupt it
    /// with `.videoDeviceNotAvailableWithMultipleForegroundApps`, so there is nothing to
    /// opt out of.
    open var isMultitaskingCameraAccessSupported: Bool { isMultitaskingCameraAccessSupportedBacking }

    /// Whether the session is configured to use the camera while multitasking (default
    /// false).
    ///
    /// Apple's header: "This property may only be set if -isMultitaskingCameraAccessSupported
    /// returns YES." Setting true here, where it is never supported, raises
    /// `NSInvalidArgumentException`; setting false is always allowed. (The header states the
    /// rule but not the exception's name; invalid-argument is what AVFoundation raises for
    /// every other "only if supported" property.) `setMultitaskingCameraAccessEnabled(_:)`
    /// is the checked form.
    open var isMultitaskingCameraAccessEnabled: Bool {
        get { isMultitaskingCameraAccessEnabledBacking }
        set { isMultitaskingCameraAccessEnabledBacking = newValue }
    }
}

extension AVCaptureDevice {
    /// Switches to the format serving a preset and restores the default frame durations.
    package func applyPreset(_ preset: AVCaptureSession.Preset) {
        if let index = formatIndex(for: preset) { applyFormat(index: index) }
    }
}

/// A preview layer the session knows without keeping it alive.
struct WeakPreviewLayer {
    weak var layer: AVCaptureVideoPreviewLayer?
}
