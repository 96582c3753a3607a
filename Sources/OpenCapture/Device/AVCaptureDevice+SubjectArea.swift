import Foundation

extension AVCaptureDevice {
    var isSubjectAreaChangeMonitoringEnabledBacking: Bool {
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
