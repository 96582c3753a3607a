import Foundation

extension AVCaptureDevice {
    /// Whether the device posts `subjectAreaDidChangeNotification` when the scene changes
    /// substantially (a lighting change, large motion, a new framing). Off by default.
    /// Setting it needs the configuration lock.
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { core.state.withLock { $0.isSubjectAreaChangeMonitoringEnabled } }
        set { enforce { try setSubjectAreaChangeMonitoringEnabled(newValue) } }
    }

    /// The checked form of setting `isSubjectAreaChangeMonitoringEnabled` (Linux addition).
    public func setSubjectAreaChangeMonitoringEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["subjectAreaChangeMonitoringEnabled"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setSubjectAreaChangeMonitoringEnabled:")
        core.state.withLock { $0.isSubjectAreaChangeMonitoringEnabled = enabled }
    }

    /// Posts `subjectAreaDidChangeNotification` for a frame where the camera saw a
    /// substantial change, if monitoring is on. Called with every frame's metadata.
    func noteSubjectArea(of metadata: FrameMetadata) {
        guard metadata.subjectAreaChanged, isSubjectAreaChangeMonitoringEnabled else { return }
        postOnMainQueue(Self.subjectAreaDidChangeNotification, object: self)
    }
}
