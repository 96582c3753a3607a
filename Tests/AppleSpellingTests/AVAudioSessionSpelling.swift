// AVAudioSession.h, AVAudioSessionTypes.h, AVAudioSessionRoute.h and AVAudioApplication.h
// (AVFAudio), spelled as iOS capture code spells them.
import AVFoundation
import Testing

/// Touches the audio session declarations; compiled, never called.
func spellAVAudioSession() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playAndRecord, mode: .videoRecording, options: [.defaultToSpeaker, .allowBluetooth])
    try session.setCategory(.record, options: [.allowBluetoothA2DP, .mixWithOthers, .duckOthers])
    try session.setCategory(.ambient)
    try session.setCategory(.playback, mode: .moviePlayback)
    try session.setMode(.measurement)
    let category: AVAudioSession.Category = session.category
    let options: AVAudioSession.CategoryOptions = session.categoryOptions
    let mode: AVAudioSession.Mode = session.mode
    let categories: [AVAudioSession.Category] = session.availableCategories + [.soloAmbient, .multiRoute]
    let modes: [AVAudioSession.Mode] = session.availableModes + [.default, .voiceChat, .gameChat, .videoChat, .spokenAudio, .voicePrompt]
    let more: AVAudioSession.CategoryOptions = [.interruptSpokenAudioAndMixWithOthers, .allowAirPlay, .overrideMutedMicrophoneInterruption]
    try session.setActive(true)
    try session.setActive(false, options: .notifyOthersOnDeactivation)
    let inputs: [AVAudioSessionPortDescription]? = session.availableInputs
    try session.setPreferredInput(inputs?.first)
    let preferred: AVAudioSessionPortDescription? = session.preferredInput
    let route: AVAudioSessionRouteDescription = session.currentRoute
    let ports: [AVAudioSessionPortDescription] = route.inputs + route.outputs
    let port = ports.first
    let portFacts: (AVAudioSession.Port?, String?, String?, Bool?) = (port?.portType, port?.portName, port?.uid, port?.hasHardwareVoiceCallProcessing)
    let sources: [AVAudioSessionDataSourceDescription]? = port?.dataSources
    let source: AVAudioSessionDataSourceDescription? = port?.selectedDataSource ?? port?.preferredDataSource
    try port?.setPreferredDataSource(nil)
    let sourceFacts: (NSNumber?, String?) = (source?.dataSourceID, source?.dataSourceName)
    let portTypes: [AVAudioSession.Port] = [.builtInMic, .headsetMic, .lineIn, .usbAudio, .builtInSpeaker, .builtInReceiver, .headphones, .lineOut, .HDMI, .virtual, .PCI]
    try session.setPreferredSampleRate(48_000)
    try session.setPreferredIOBufferDuration(0.005)
    try session.setPreferredInputNumberOfChannels(1)
    try session.setInputGain(0.5)
    try session.setPrefersInterruptionOnRouteDisconnect(true)
    try session.setPrefersNoInterruptionsFromSystemAlerts(true)
    try session.setAllowHapticsAndSystemSoundsDuringRecording(true)
    try session.setSupportsMultichannelContent(false)
    try session.setAggregatedIOPreference(.aggregated)
    try session.overrideOutputAudioPort(.speaker)
    let hardware: (Double, Double, TimeInterval, TimeInterval, Int, Int, Int, Int, Int) = (
        session.sampleRate, session.preferredSampleRate, session.ioBufferDuration, session.preferredIOBufferDuration,
        session.inputNumberOfChannels, session.outputNumberOfChannels, session.maximumInputNumberOfChannels,
        session.maximumOutputNumberOfChannels, session.preferredInputNumberOfChannels)
    let more2: (Float, Bool, Bool, TimeInterval, TimeInterval, Bool, Bool, Float) = (
        session.inputGain, session.isInputGainSettable, session.isInputAvailable, session.inputLatency, session.outputLatency,
        session.isOtherAudioPlaying, session.secondaryAudioShouldBeSilencedHint, session.outputVolume)
    let flags: (Bool, Bool, Bool, Bool) = (
        session.prefersInterruptionOnRouteDisconnect, session.prefersNoInterruptionsFromSystemAlerts,
        session.allowHapticsAndSystemSoundsDuringRecording, session.supportsMultichannelContent)
    let names: [Notification.Name] = [
        AVAudioSession.interruptionNotification, AVAudioSession.routeChangeNotification, AVAudioSession.mediaServicesWereLostNotification,
        AVAudioSession.mediaServicesWereResetNotification, AVAudioSession.silenceSecondaryAudioHintNotification,
        AVAudioApplication.inputMuteStateChangeNotification,
    ]
    let keys: [String] = [
        AVAudioSessionInterruptionTypeKey, AVAudioSessionInterruptionOptionKey, AVAudioSessionInterruptionReasonKey,
        AVAudioSessionRouteChangeReasonKey, AVAudioSessionRouteChangePreviousRouteKey, AVAudioApplication.muteStateKey,
    ]
    _ = (category, options, mode, categories, modes, more, preferred, portFacts, sources, sourceFacts, portTypes, hardware, more2, flags, names, keys)
}

/// A typical interruption and route-change handler; compiled, never called.
func spellAudioSessionNotifications(_ note: Notification) {
    guard let info = note.userInfo else { return }
    if let raw = info[AVAudioSessionInterruptionTypeKey] as? UInt, let type = AVAudioSession.InterruptionType(rawValue: raw) {
        switch type {
        case .began:
            let reason = (info[AVAudioSessionInterruptionReasonKey] as? UInt).flatMap(AVAudioSession.InterruptionReason.init)
            _ = reason == .routeDisconnected || reason == .builtInMicMuted || reason == .default
        case .ended:
            let options = AVAudioSession.InterruptionOptions(rawValue: info[AVAudioSessionInterruptionOptionKey] as? UInt ?? 0)
            _ = options.contains(.shouldResume)
        }
    }
    if let raw = info[AVAudioSessionRouteChangeReasonKey] as? UInt, let reason = AVAudioSession.RouteChangeReason(rawValue: raw) {
        let reasons: [AVAudioSession.RouteChangeReason] = [
            .unknown, .newDeviceAvailable, .oldDeviceUnavailable, .categoryChange, .override, .wakeFromSleep,
            .noSuitableRouteForCategory, .routeConfigurationChange,
        ]
        let previous = info[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
        _ = (reasons.contains(reason), previous)
    }
    let codes: [AVAudioSession.ErrorCode] = [
        .none, .mediaServicesFailed, .isBusy, .incompatibleCategory, .cannotInterruptOthers, .missingEntitlement, .siriIsRecording,
        .cannotStartPlaying, .cannotStartRecording, .badParam, .insufficientPriority, .resourceNotAvailable, .unspecified,
        .expiredSession, .sessionNotActive,
    ]
    let io: [AVAudioSession.IOType] = [.notSpecified, .aggregated]
    let overrides: [AVAudioSession.PortOverride] = [.none, .speaker]
    _ = (codes, io, overrides)
}

/// Record permission, the pre-iOS 17 way; compiled, never called.
@available(*, deprecated)
func spellDeprecatedRecordPermission() {
    let session = AVAudioSession.sharedInstance()
    switch session.recordPermission {
    case .granted, .denied, .undetermined: break
    }
    session.requestRecordPermission { granted in _ = granted }
}

/// Record permission and input mute (iOS 17); compiled, never called.
func spellAVAudioApplication() async throws {
    let application = AVAudioApplication.shared
    switch application.recordPermission {
    case .granted, .denied, .undetermined: break
    }
    AVAudioApplication.requestRecordPermission { granted in _ = granted }
    let granted: Bool = await AVAudioApplication.requestRecordPermission()
    try application.setInputMuted(!application.isInputMuted)
    _ = granted
}

@Suite("AVAudioSession spelling")
struct AVAudioSessionSpellingTests {
    @Test("AVCam's audio session setup: play-and-record for video recording, active, permission granted")
    func avCamSetup() async throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .videoRecording, options: [])
        try session.setActive(true)
        #expect(session.category == .playAndRecord && session.mode == .videoRecording)
        #expect(await AVAudioApplication.requestRecordPermission())
        #expect(session.currentRoute.inputs.first?.portType == .builtInMic)
        try session.setActive(false)
        try session.setCategory(.soloAmbient, mode: .default, options: [])
    }
}
