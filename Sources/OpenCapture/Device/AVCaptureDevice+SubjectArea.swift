import Foundation

extension AVCaptureDevice {
    /// The checked form of setting `isSubjectAreaChangeMonitoringEnabled` (Linux addition).
    public func setSubjectAreaChangeMonitoringEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty("setSubjectAreaChangeMonitoringEnabled:", announcing: ["subjectAreaChangeMonitoringEnabled"]) {
            core.subjectAreaMonitoring.withLock { $0 = enabled }
            return nil
        }
    }

    /// Posts `subjectAreaDidChangeNotification` for a frame where the camera saw a
    /// substantial change, if monitoring is on. Called with every frame's metadata.
    func noteSubjectArea(of metadata: FrameMetadata) {
        guard metadata.subjectAreaChanged, isSubjectAreaChangeMonitoringEnabled else { return }
        postOnMainQueue(Self.subjectAreaDidChangeNotification, object: self)
    }
}

extension AVCaptureDevice {
    /// The subject-area key, where the device's key table lists it.
    static func subjectAreaObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isSubjectAreaChangeMonitoringEnabled, "subjectAreaChangeMonitoringEnabled")]
    }
}
