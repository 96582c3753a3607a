import Foundation

// The media selection groups of the deprecation walk (#30): a file's alternate groups
// ('tkhd'), as Apple's readers present them. FFmpeg's MP4 muxer puts every audio track in
// group 1 and every subtitle track in group 3, and video in none.

extension AVAsset {
    /// The characteristics (`.audible`, `.legible`, `.visual`) that have a media selection
    /// group, in the order of each group's first track; empty when no track is in an
    /// alternate group or the file cannot be read (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableMediaCharacteristicsWithMediaSelectionOptions) instead")
    public var availableMediaCharacteristicsWithMediaSelectionOptions: [AVMediaCharacteristic] { mediaSelectionCharacteristics() }

    /// The group of options with `mediaCharacteristic` (`.audible`, `.legible` or
    /// `.visual`): the tracks of the alternate group of the first track with that
    /// characteristic that is in one; nil when there is none (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadMediaSelectionGroup(for:) instead")
    public func mediaSelectionGroup(forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> AVMediaSelectionGroup? {
        selectionGroup(for: mediaCharacteristic)
    }

    /// Loads the group of options with `mediaCharacteristic`; nil when there is none.
    /// Throws the AVError of a file that cannot be read.
    public func loadMediaSelectionGroup(for mediaCharacteristic: AVMediaCharacteristic) async throws -> AVMediaSelectionGroup? {
        _ = try describedFile()
        return selectionGroup(for: mediaCharacteristic)
    }

    /// Loads the group of options with `mediaCharacteristic` and calls `completionHandler`
    /// on a background queue with it (nil when there is none) or with the error that kept
    /// the file from being read.
    public func loadMediaSelectionGroup(
        for mediaCharacteristic: AVMediaCharacteristic, completionHandler: @escaping @Sendable (AVMediaSelectionGroup?, (any Error)?) -> Void
    ) {
        let asset = UncheckedSendable(self)
        DispatchQueue.global().async {
            do {
                _ = try asset.value.describedFile()
                completionHandler(asset.value.selectionGroup(for: mediaCharacteristic), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The characteristics a selection group is made for.
    private static let selectableCharacteristics: [AVMediaCharacteristic] = [.audible, .legible, .visual]

    func mediaSelectionCharacteristics() -> [AVMediaCharacteristic] {
        let groups = fileBoxes.alternateGroups
        var found: [AVMediaCharacteristic] = []
        for track in tracks where groups[track.trackID] != nil {
            for characteristic in Self.selectableCharacteristics where track.mediaCharacteristics.contains(characteristic) && !found.contains(characteristic) {
                found.append(characteristic)
            }
        }
        return found
    }

    func selectionGroup(for characteristic: AVMediaCharacteristic) -> AVMediaSelectionGroup? {
        guard Self.selectableCharacteristics.contains(characteristic) else { return nil }
        let boxes = fileBoxes
        let all = tracks
        guard let first = all.first(where: { boxes.alternateGroups[$0.trackID] != nil && $0.mediaCharacteristics.contains(characteristic) }),
            let group = boxes.alternateGroups[first.trackID]
        else { return nil }
        let options = all.filter { boxes.alternateGroups[$0.trackID] == group }.map(AVMediaSelectionOption.init(track:))
        return AVMediaSelectionGroup(
            options: options, defaultOption: options.first { boxes.enabledTracks.contains($0.track.trackID) },
            allowsEmptySelection: characteristic == .legible)
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVMediaCharacteristic] {
    /// The replacement of the iOS 16-deprecated `availableMediaCharacteristicsWithMediaSelectionOptions`.
    public static var availableMediaCharacteristicsWithMediaSelectionOptions: AVAsyncProperty<Root, [AVMediaCharacteristic]> {
        .init("availableMediaCharacteristicsWithMediaSelectionOptions") { _ = try $0.describedFile(); return $0.mediaSelectionCharacteristics() }
    }
}
