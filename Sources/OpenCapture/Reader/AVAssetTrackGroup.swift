import Foundation

/// Tracks that are alternatives to one another: those sharing a non-zero alternate group
/// in their track headers ('tkhd'). FFmpeg's MP4 muxer puts every audio track in one
/// group and every subtitle track in another, so its files have such groups too.
open class AVAssetTrackGroup: NSObject, NSCopying, @unchecked Sendable {
    private let ids: [NSNumber]

    /// The IDs of the group's tracks, in the file's order.
    open var trackIDs: [NSNumber] { ids }

    init(trackIDs: [NSNumber]) {
        self.ids = trackIDs
        super.init()
    }

    /// The group is immutable, so a copy is itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool { (object as? AVAssetTrackGroup)?.ids == ids }
    open override var hash: Int { ids.hashValue }
}

extension AVAsset {
    /// The alternate groups of the file's tracks, in the order of their first track;
    /// empty when no track header names one (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.trackGroups) instead")
    public var trackGroups: [AVAssetTrackGroup] { trackGroupsOfFile() }

    func trackGroupsOfFile() -> [AVAssetTrackGroup] {
        let groups = fileBoxes.alternateGroups
        var order: [Int] = []
        var members: [Int: [NSNumber]] = [:]
        for track in tracks {
            guard let group = groups[track.trackID] else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(NSNumber(value: track.trackID))
        }
        return order.map { AVAssetTrackGroup(trackIDs: members[$0] ?? []) }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVAssetTrackGroup] {
    /// The replacement of the iOS 16-deprecated `trackGroups`.
    public static var trackGroups: AVAsyncProperty<Root, [AVAssetTrackGroup]> {
        .init("trackGroups") { _ = try $0.describedFile(); return $0.trackGroupsOfFile() }
    }
}
