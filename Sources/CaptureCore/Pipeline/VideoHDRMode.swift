/// Whether a stream extends its dynamic range (video HDR), as the API layer asks the backend.
package enum VideoHDRMode: Int, Sendable, Equatable {
    /// One exposure per frame.
    case off = 0
    /// Every frame merges a long and a short exposure.
    case on = 1
    /// The camera merges exposures when the scene needs it (both ends out of one exposure's
    /// range) and stops when it no longer does; the frame metadata says which it did.
    case automatic = 2
}
