import Foundation

/// One connection's route in a `FrameRouter`'s list: the consumer and the form it takes
/// frames in, fixed when the list is built (each commit and start).
///
/// Thread safety: immutable; its `Descriptions` are the capture thread's alone.
final class FrameRoute: Sendable {
    let connection: AVCaptureConnection
    let consumer: any RouteConsumer
    /// Nil for a consumer that takes the camera's buffer as it is.
    let conversion: FrameConversion?
    /// Reused frame to frame, and by the connection's route in the router's next list.
    let descriptions: Descriptions

    /// The route of `connection`, or nil if its consumer takes no frames. A route new to the
    /// router starts a run of the consumer's pools.
    init?(connection: AVCaptureConnection, previous: FrameRoute?) {
        guard let consumer = connection.consumer, let form = consumer.frameForm(for: connection) else { return nil }
        self.connection = connection
        self.consumer = consumer
        switch form {
        case .asCaptured: conversion = nil
        case .converted(let conversion): self.conversion = conversion
        }
        descriptions = previous?.descriptions ?? Descriptions()
        if previous == nil { conversion?.pools.beginRun() }
    }

    /// The format description of the converted frames last delivered.
    ///
    /// Thread safety: only the capture thread of the route's router touches `last` (a route
    /// belongs to one router, whose next list hands it on without reading it).
    final class Descriptions: @unchecked Sendable {
        private var last: CMFormatDescription?

        /// The description of a converted frame of `format` and size, made only when either changed.
        func description(format: PixelFormat, width: Int, height: Int) -> CMFormatDescription {
            if let last, last.mediaSubTypeCode == format.rawValue, Int(last.dimensions.width) == width,
                Int(last.dimensions.height) == height
            {
                return last
            }
            let made = CMFormatDescription(videoFormat: format.rawValue, width: width, height: height)
            last = made
            return made
        }
    }
}
