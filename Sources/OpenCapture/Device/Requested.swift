/// A value asked for through the API, with the id of the request that carried it to the
/// backend. The device keeps it only to answer until a frame acknowledges the request
/// (`FrameMetadata.appliedRequest` >= `request`); from then on the frame's value is the
/// truth and the backend keeps its own.
struct Requested<Value: Sendable>: Sendable {
    var value: Value
    /// 0 until set: no request, so the newest frame already reflects it.
    var request: UInt64 = 0

    init(_ value: Value, request: UInt64 = 0) {
        self.value = value
        self.request = request
    }

    /// Whether `frame` was made with this request applied.
    func isAcknowledged(by frame: FrameMetadata) -> Bool { frame.appliedRequest >= request }
}
