import CaptureCore

/// What a `MovieReader` found about one stream of a file.
package struct MovieTrackInfo: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case video
        case audio
        case other
    }

    /// The stream's index in the file, which `MovieTrackDecoder` reads.
    package var index: Int
    /// The track's ID: the container's ('tkhd' track ID), else index + 1.
    package var trackID: Int32
    package var kind: Kind
    /// FFmpeg's codec name ("h264", "hevc", "mjpeg", "rawvideo", "aac", "pcm_s16le"...).
    package var codecName: String
    /// Width and height of the stored pictures (0 for audio).
    package var width = 0
    package var height = 0
    /// The display matrix's clockwise rotation in degrees (0, 90, 180, 270).
    package var rotationDegrees = 0
    /// Frames per second (average, else the stream's base rate); 0 for audio.
    package var frameRate = 0.0
    /// When the track starts and how long it lasts.
    package var start = CMTime.zero
    package var duration = CMTime.zero
    /// Units per second of the track's stored times.
    package var timeScale: Int32 = 0
    /// Bits per second: the stream's, else its bytes over its duration; 0 when unknown.
    package var bitRate = 0
    package var sampleRate = 0
    package var channels = 0
    /// Whether FFmpeg has a decoder for the codec.
    package var decodable = false
    /// Whether the pictures are full range (JPEG) rather than video range.
    package var fullRange = false
    /// The stream's language tag (ISO 639-2/T, "und" when undetermined); nil without one.
    package var language: String?
    /// Frames decode in another order than they show (B-frames: FFmpeg's video delay > 0).
    package var reordersFrames = false

    package init(index: Int, trackID: Int32, kind: Kind, codecName: String) {
        self.index = index
        self.trackID = trackID
        self.kind = kind
        self.codecName = codecName
    }
}
