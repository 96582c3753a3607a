// Subclasses of the AVCaptureSession.h classes overriding the members the library implements in
// extension files or stores (compile-only; the rest are in AVCaptureOverridesSpelling.swift).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the session's audio-session, deferred-start, connection-graph and multitasking members.
final class SessionGraphDouble: AVCaptureSession, @unchecked Sendable {
    override var usesApplicationAudioSession: Bool {
        get { super.usesApplicationAudioSession }
        set { super.usesApplicationAudioSession = newValue }
    }
    override var automaticallyConfiguresApplicationAudioSession: Bool {
        get { super.automaticallyConfiguresApplicationAudioSession }
        set { super.automaticallyConfiguresApplicationAudioSession = newValue }
    }
    override var configuresApplicationAudioSessionToMixWithOthers: Bool {
        get { super.configuresApplicationAudioSessionToMixWithOthers }
        set { super.configuresApplicationAudioSessionToMixWithOthers = newValue }
    }
    override var configuresApplicationAudioSessionForBluetoothHighQualityRecording: Bool {
        get { super.configuresApplicationAudioSessionForBluetoothHighQualityRecording }
        set { super.configuresApplicationAudioSessionForBluetoothHighQualityRecording = newValue }
    }
    override var isManualDeferredStartSupported: Bool { super.isManualDeferredStartSupported }
    override var automaticallyRunsDeferredStart: Bool {
        get { super.automaticallyRunsDeferredStart }
        set { super.automaticallyRunsDeferredStart = newValue }
    }
    override func runDeferredStartWhenNeeded() { super.runDeferredStartWhenNeeded() }
    override var deferredStartDelegate: (any AVCaptureSessionDeferredStartDelegate)? { super.deferredStartDelegate }
    override var deferredStartDelegateCallbackQueue: DispatchQueue? { super.deferredStartDelegateCallbackQueue }
    override func setDeferredStartDelegate(_ deferredStartDelegate: (any AVCaptureSessionDeferredStartDelegate)?, deferredStartDelegateCallbackQueue: DispatchQueue?) { super.setDeferredStartDelegate(deferredStartDelegate, deferredStartDelegateCallbackQueue: deferredStartDelegateCallbackQueue) }
    override func addInputWithNoConnections(_ input: AVCaptureInput) { super.addInputWithNoConnections(input) }
    override func addOutputWithNoConnections(_ output: AVCaptureOutput) { super.addOutputWithNoConnections(output) }
    override func canAddConnection(_ connection: AVCaptureConnection) -> Bool { super.canAddConnection(connection) }
    override func addConnection(_ connection: AVCaptureConnection) { super.addConnection(connection) }
    override func removeConnection(_ connection: AVCaptureConnection) { super.removeConnection(connection) }
    override var isMultitaskingCameraAccessSupported: Bool { super.isMultitaskingCameraAccessSupported }
    override var isMultitaskingCameraAccessEnabled: Bool {
        get { super.isMultitaskingCameraAccessEnabled }
        set { super.isMultitaskingCameraAccessEnabled = newValue }
    }
}

/// Overrides the connection's ports, output, audio channels and preview layer.
final class ConnectionMembersDouble: AVCaptureConnection, @unchecked Sendable {
    override var inputPorts: [AVCaptureInput.Port] { super.inputPorts }
    override var output: AVCaptureOutput? { super.output }
    override var audioChannels: [AVCaptureAudioChannel] { super.audioChannels }
    override var videoPreviewLayer: AVCaptureVideoPreviewLayer? { super.videoPreviewLayer }
}
