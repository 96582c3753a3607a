import Foundation
import ImageOps
import MediaIO

/// How an image generator finds, decodes and shapes the frame for a time.
extension AVAssetImageGenerator {
    /// The image at `requested` and the time it shows, on the calling thread.
    func makeImage(at requested: CMTime) throws -> (CGImage, CMTime) {
        let settings = self.settings.withLock { $0 }
        guard requested.isNumeric, let track = asset.tracks(withMediaType: .video).first, let url = asset.fileURL else {
            throw Self.noImage
        }
        let (frame, shown) = try frame(of: track.info, in: url, at: requested, settings)
        let image = try shaped(frame, rotation: settings.appliesPreferredTrackTransform ? track.info.rotationDegrees : 0, settings.maximumSize)
        guard let picture = CGImage.copying(bgra: image) else { throw Self.noImage }
        return (picture, shown)
    }

    /// The frame on screen at `requested` (the last one past the end, the first before the
    /// start) and the time to report, within the tolerances.
    private func frame(of info: MovieTrackInfo, in url: URL, at requested: CMTime, _ settings: Settings) throws -> (CVPixelBuffer, CMTime) {
        let end = info.start + info.duration
        // Past the end the decoder starts a second before it and the last frame is kept.
        let pastEnd = info.duration > .zero && requested >= end
        let start = pastEnd ? CMTimeMaximum(info.start, end - CMTime(value: 1, timescale: 1)) : CMTimeMaximum(requested, info.start)
        let decoder: MovieTrackDecoder
        do {
            decoder = try MovieTrackDecoder(url: url, track: info, pixelFormat: .bgra, pcm: nil, start: start)
        } catch {
            throw AVAssetReader.avError(error)
        }
        var found: (CVBuffer, CMTime)?
        while true {
            let sample: MovieTrackDecoder.Sample?
            do { sample = try decoder.next() } catch { throw AVAssetReader.avError(error) }
            guard case .video(let buffer, let time, _)? = sample else { break }
            found = (buffer, time)
            if !pastEnd { break }
        }
        guard let (buffer, time) = found else { throw Self.noImage }
        // A frame before the time, shown at it, is the time's own frame unless the time is
        // past the track (then it is only the nearest one).
        let before = requested - time, after = time - requested
        if pastEnd || requested < info.start {
            let allowed = before > .zero ? before <= settings.toleranceBefore : after <= settings.toleranceAfter
            guard allowed else { throw Self.noImage }
            return (buffer, time)
        }
        let withinTolerance = (before <= .zero || before <= settings.toleranceBefore) && (after <= .zero || after <= settings.toleranceAfter)
        return (buffer, withinTolerance ? time : requested)
    }

    /// The frame turned by the track's rotation and shrunk to fit `maximumSize`.
    private func shaped(_ frame: CVPixelBuffer, rotation degrees: Int, _ maximumSize: CGSize) throws -> CVPixelBuffer {
        var picture = frame
        if let rotation = Rotation(rawValue: degrees), rotation != .none {
            let size = rotation.rotatedSize(width: frame.width, height: frame.height)
            let turned = CVBuffer(format: .bgra, width: size.width, height: size.height)
            guard ImageTransform.transform(frame, into: turned, rotation: rotation, mirrored: false) else { throw Self.noImage }
            picture = turned
        }
        let limitWidth = maximumSize.width > 0 ? Double(maximumSize.width) : .infinity
        let limitHeight = maximumSize.height > 0 ? Double(maximumSize.height) : .infinity
        let scale = min(limitWidth / Double(picture.width), limitHeight / Double(picture.height), 1)
        guard scale < 1 else { return picture }
        let width = max(Int((Double(picture.width) * scale).rounded()), 1)
        let height = max(Int((Double(picture.height) * scale).rounded()), 1)
        let shrunk = CVBuffer(format: .bgra, width: width, height: height)
        guard ImageTransform.scale(picture, into: shrunk) else { throw Self.noImage }
        return shrunk
    }
}
