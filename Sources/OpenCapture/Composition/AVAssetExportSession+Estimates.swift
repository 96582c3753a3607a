import Foundation

// The export's duration and file-length estimates (AVAssetExportSession.h's
// AVAssetExportSessionDurationAndLength), from the asset's tracks and the preset.

extension AVAssetExportSession {
    /// The bytes the export is expected to write: the tracks' data rates over the duration
    /// within `timeRange`, no more than `fileLengthLimit` when one is set; 0 for an asset
    /// that cannot be read (deprecated in iOS 18).
    @available(iOS, deprecated: 18.0, message: "Use estimateOutputFileLengthWithCompletionHandler: instead")
    public var estimatedOutputFileLength: Int64 { (try? estimates().length) ?? 0 }

    /// Estimates the longest the export can be: the asset's duration within `timeRange`,
    /// shortened to what `fileLengthLimit` holds at the expected data rate. The handler
    /// runs on a global queue, with `.invalid` and the AVError for an unreadable asset.
    public func estimateMaximumDuration(completionHandler handler: @escaping @Sendable (CMTime, (any Error)?) -> Void) {
        let session = UncheckedSendable(self)
        DispatchQueue.global().async {
            do { handler(try session.value.estimates().duration, nil) } catch { handler(.invalid, error) }
        }
    }

    /// Estimates the exported file's length in bytes (see `estimatedOutputFileLength`). The
    /// handler runs on a global queue, with 0 and the AVError for an unreadable asset.
    public func estimateOutputFileLength(completionHandler handler: @escaping @Sendable (Int64, (any Error)?) -> Void) {
        let session = UncheckedSendable(self)
        DispatchQueue.global().async {
            do { handler(try session.value.estimates().length, nil) } catch { handler(0, error) }
        }
    }

    /// The async form of `estimateMaximumDuration(completionHandler:)`.
    public var estimatedMaximumDuration: CMTime { get async throws { try estimates().duration } }

    /// The async form of `estimateOutputFileLength(completionHandler:)`.
    public var estimatedOutputFileLengthInBytes: Int64 { get async throws { try estimates().length } }

    /// The estimates: the data rate of the tracks the preset writes (a passthrough copies
    /// every track at its rate; audio-only the first audio track; a video preset its bit
    /// rate, else the source's scaled by the picture area it keeps, plus the first audio
    /// track), over the duration within `timeRange`, both held to `fileLengthLimit`.
    func estimates() throws -> (duration: CMTime, length: Int64) {
        if asset.fileURL != nil { _ = try asset.describedFile() }
        let tracks = asset.tracks
        let audio = tracks.first { $0.mediaType == .audio }.map { Double($0.estimatedDataRate) } ?? 0
        var bitsPerSecond: Double
        switch ExportPreset(presetName)?.kind ?? .passthrough {
        case .passthrough:
            bitsPerSecond = tracks.reduce(0) { $0 + Double($1.estimatedDataRate) }
        case .audioOnly:
            bitsPerSecond = audio
        case .video(_, let maximum, let bitRate):
            let video = tracks.first { $0.mediaType == .video }
            var rate = bitRate.map(Double.init) ?? Double(video?.estimatedDataRate ?? 0)
            if bitRate == nil, let maximum, let size = video?.naturalSize, size.width > 0, size.height > 0 {
                let scale = min(1, Double(maximum.width) / size.width, Double(maximum.height) / size.height)
                rate *= scale * scale
            }
            bitsPerSecond = rate + audio
        }
        let duration = maxDuration
        let seconds = duration.isNumeric ? duration.seconds : 0
        var length = Int64((bitsPerSecond / 8 * seconds).rounded())
        let limit = fileLengthLimit
        guard limit > 0, length > limit else { return (duration, length) }
        length = limit
        let held = CMTime(seconds: Double(limit) * 8 / bitsPerSecond, preferredTimescale: duration.timescale > 0 ? duration.timescale : 600)
        return (CMTimeMinimum(duration, held), length)
    }
}
