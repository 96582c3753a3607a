import FileDeck
import Foundation
import MediaIO

extension AVCaptureDevice {
    /// A deck that plays a video file as a camera (Linux addition): an `.external` device
    /// whose unique ID is `file:` and the file's absolute path, with one format (the file's
    /// size and frame rate, serving every preset a camera with that one mode serves) and
    /// real transport controls (`transportControlsSupported` is true).
    ///
    /// It plays MP4, MOV, MKV, AVI, Y4M, image sequences (`frame-%03d.png`), raw H.264 and
    /// HEVC elementary streams (timed by the stream's frame rate) and whatever else FFmpeg
    /// demuxes and decodes, in regular files only. Calling it again for the same file returns the same
    /// device. Decks are not listed by discovery sessions; `AVCaptureDevice(uniqueID:)`
    /// finds one once made.
    ///
    /// The deck starts `.playing` at speed 1 from the first frame (from the last when first
    /// played backwards), so capture code that never touches the transport sees the file
    /// play once in real time. See `setTransportControlsPlaybackMode(_:speed:)` for the rest.
    ///
    /// - Throws: `AVError` `.fileFailedToParse` for a missing or unreadable file, one that is
    ///   not a regular file (a FIFO, a device), a damaged container or a frame rate no camera
    ///   has (outside 1/60 to 1000 fps), `.fileFormatNotRecognized` for a file no demuxer
    ///   recognises or one without a video track, `.decoderNotFound` when FFmpeg cannot
    ///   decode its video, `.decodeFailed` for pictures over 8192x4320 pixels or a first
    ///   frame that does not decode.
    public static func fileDeck(url: URL) throws -> AVCaptureDevice {
        do {
            guard let device = try DeviceRegistry.current.device(opening: url) else {
                throw AVError(.fileFormatNotRecognized, "\(url.lastPathComponent): no device provider plays files")
            }
            return device
        } catch let error as MovieReaderError {
            if case .cannotParse(let why) = error, why.hasSuffix("no video track") {
                throw AVError(.fileFormatNotRecognized, error.description)
            }
            throw AVAssetReader.avError(error)
        }
    }

    /// The deck's own settings, for a device made by `fileDeck(url:)`; nil for cameras.
    public var deck: Deck? { (backend as? FileDeckCamera).map { Deck(camera: $0) } }

    /// A file deck's settings (Linux addition). Changes apply at the next frame boundary.
    public struct Deck: Sendable {
        let camera: FileDeckCamera

        /// The speeds a deck plays at besides 0 (a still), in either direction.
        public static let speedMagnitudes: ClosedRange<Float> = DeckTransport.speedMagnitudes

        /// The file played.
        public var url: URL { camera.url }

        /// What happens at the end of the file (or at its start, playing backwards): false,
        /// the default, stops there (the transport turns `.notPlaying` at speed 0, observers
        /// of both are told, and no more frames come until the transport is set again);
        /// true plays on from the other end.
        public var loops: Bool {
            get { camera.transport.loops }
            nonmutating set { camera.setTransport { $0.loops = newValue } }
        }

        /// Real time (the default): each frame at its file time scaled by the speed, on the
        /// host clock; frames a consumer is too slow for are skipped. Virtual: every frame,
        /// as fast as the consumers take them, stamped as real time would (for tests).
        public var pacing: Simulation.Pacing {
            get { camera.transport.pacing == .virtual ? .virtual : .realTime }
            nonmutating set { camera.setTransport { $0.pacing = newValue == .virtual ? .virtual : .realTime } }
        }

        /// The file's frames per second.
        public var frameRate: Double { camera.track.frameRate }

        /// How long the file plays at speed 1.
        public var duration: CMTime { camera.track.duration }
    }
}
