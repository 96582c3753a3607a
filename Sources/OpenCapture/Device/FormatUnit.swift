import Foundation
import Synchronization

/// A device's format settings: the active format, the frame durations asked for, the colour
/// space and video HDR. One unit because a new format resets the others together.
///
/// Threads: any; the lock is held only to read or write the settings.
final class FormatUnit: Sendable {
    private struct State {
        var index: Int
        /// `.invalid` means the format's default.
        var minFrameDuration = CMTime.invalid
        var maxFrameDuration = CMTime.invalid
        /// The raw `AVCaptureColorSpace` frames are rendered in.
        var colorSpace = 0
        /// Video HDR: whether the device adjusts it itself, else whether it is on.
        var automaticallyAdjustsVideoHDR = true
        var videoHDREnabled = false
    }

    private let state: Mutex<State>

    init(formatIndex: Int) {
        state = Mutex(State(index: formatIndex))
    }

    /// The index of the active format in the device's `formats`.
    var index: Int { state.withLock { $0.index } }

    /// Makes format `index` active: the frame durations return to its defaults, manual video
    /// HDR turns off, and a colour space it lacks falls back to sRGB, as on iOS. Returns
    /// whether the format changed.
    func select(_ index: Int, colorSpaces: [Int]) -> Bool {
        state.withLock { state in
            let changed = state.index != index
            state.index = index
            state.minFrameDuration = .invalid
            state.maxFrameDuration = .invalid
            state.videoHDREnabled = false
            if !colorSpaces.contains(state.colorSpace) { state.colorSpace = 0 }
            return changed
        }
    }

    /// The shortest frame duration asked for; `.invalid` for the format's default.
    var minFrameDuration: CMTime {
        get { state.withLock { $0.minFrameDuration } }
        set { state.withLock { $0.minFrameDuration = newValue } }
    }

    /// The longest frame duration asked for; `.invalid` for the format's default.
    var maxFrameDuration: CMTime {
        get { state.withLock { $0.maxFrameDuration } }
        set { state.withLock { $0.maxFrameDuration = newValue } }
    }

    /// Returns both frame durations to the format's defaults.
    func resetFrameDurations() {
        state.withLock {
            $0.minFrameDuration = .invalid
            $0.maxFrameDuration = .invalid
        }
    }

    var colorSpace: Int {
        get { state.withLock { $0.colorSpace } }
        set { state.withLock { $0.colorSpace = newValue } }
    }

    /// Whether the device adjusts video HDR itself, and whether it is on when it does not.
    var videoHDR: (automatic: Bool, enabled: Bool) {
        state.withLock { ($0.automaticallyAdjustsVideoHDR, $0.videoHDREnabled) }
    }

    /// Hands video HDR to the device or takes it back; taking it back keeps it as it is
    /// now (`current`, what the device last did).
    func setAutomaticallyAdjustsVideoHDR(_ automatic: Bool, current: Bool) {
        state.withLock { state in
            if state.automaticallyAdjustsVideoHDR && !automatic { state.videoHDREnabled = current }
            state.automaticallyAdjustsVideoHDR = automatic
        }
    }

    var videoHDREnabled: Bool {
        get { state.withLock { $0.videoHDREnabled } }
        set { state.withLock { $0.videoHDREnabled = newValue } }
    }
}
