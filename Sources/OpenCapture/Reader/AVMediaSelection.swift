import Foundation

/// One option chosen (or none) in each of an asset's media selection groups
/// (AVMediaSelection.h): `asset.preferredMediaSelection` holds each group's default option.
///
/// Threads: every member may be called from any thread.
open class AVMediaSelection: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// A group and what is selected in it.
    struct Choice {
        let group: AVMediaSelectionGroup
        var option: AVMediaSelectionOption?
        /// Chosen with `select(_:in:)`: automatic selection no longer applies to the group.
        var explicit = false
    }

    private weak var weakAsset: AVAsset?
    let choices: Mutex<[Choice]>

    init(asset: AVAsset?, choices: [Choice]) {
        self.weakAsset = asset
        self.choices = Mutex(choices)
        super.init()
    }

    /// The asset the selection is of.
    open var asset: AVAsset? { weakAsset }

    /// The option selected in `mediaSelectionGroup` (a group of the selection's asset); nil
    /// when none is (only in a group that allows an empty selection) or the group is not
    /// the asset's.
    open func selectedMediaOption(in mediaSelectionGroup: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        choices.withLock { $0.first { $0.group == mediaSelectionGroup }?.option }
    }

    /// Whether automatic selection criteria may choose in `mediaSelectionGroup`: true for
    /// each of the asset's groups until an option is chosen in it with
    /// `AVMutableMediaSelection.select(_:in:)`; false for a group that is not the asset's.
    open func mediaSelectionCriteriaCanBeAppliedAutomatically(to mediaSelectionGroup: AVMediaSelectionGroup) -> Bool {
        choices.withLock { $0.first { $0.group == mediaSelectionGroup }.map { !$0.explicit } ?? false }
    }

    /// An immutable selection with the same choices.
    open func copy(with zone: NSZone? = nil) -> Any { AVMediaSelection(asset: asset, choices: choices.withLock { $0 }) }

    /// A mutable selection with the same choices.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { AVMutableMediaSelection(asset: asset, choices: choices.withLock { $0 }) }

    /// Selections are equal when they are of the same asset and select the same options.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelection, other.asset === asset else { return false }
        let mine = choices.withLock { $0.map { ($0.group, $0.option) } }
        let theirs = other.choices.withLock { $0.map { ($0.group, $0.option) } }
        return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    open override var hash: Int { choices.withLock { $0.compactMap(\.option?.hash).reduce(0) { $0 &* 31 &+ $1 } } }
}

/// A media selection whose options can be chosen.
open class AVMutableMediaSelection: AVMediaSelection, @unchecked Sendable {
    /// Selects `mediaSelectionOption` in `mediaSelectionGroup` and deselects the group's
    /// others; nil deselects all where the group allows an empty selection. An option that
    /// is not in the group, nil in a group that needs a selection, or a group that is not
    /// the asset's change nothing.
    open func select(_ mediaSelectionOption: AVMediaSelectionOption?, in mediaSelectionGroup: AVMediaSelectionGroup) {
        if let option = mediaSelectionOption {
            guard mediaSelectionGroup.options.contains(option) else { return }
        } else {
            guard mediaSelectionGroup.allowsEmptySelection else { return }
        }
        choices.withLock { choices in
            guard let index = choices.firstIndex(where: { $0.group == mediaSelectionGroup }) else { return }
            choices[index].option = mediaSelectionOption
            choices[index].explicit = true
        }
    }
}

extension AVAsset {
    /// Each media selection group's default option (`defaultOption`), in the order of
    /// `availableMediaCharacteristicsWithMediaSelectionOptions`; a selection of no groups
    /// for an asset without any (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.preferredMediaSelection) instead")
    public var preferredMediaSelection: AVMediaSelection { fileMediaSelections().preferred }

    /// Every combination of one option from each media selection group (a group that may be
    /// empty contributes its options, not the empty choice); the one selection of no groups
    /// for an asset without any (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.allMediaSelections) instead")
    public var allMediaSelections: [AVMediaSelection] { fileMediaSelections().all }

    func fileMediaSelections() -> (preferred: AVMediaSelection, all: [AVMediaSelection]) {
        var groups: [AVMediaSelectionGroup] = []
        for characteristic in mediaSelectionCharacteristics() {
            if let group = selectionGroup(for: characteristic), !groups.contains(group) { groups.append(group) }
        }
        let preferred = AVMediaSelection(asset: self, choices: groups.map { AVMediaSelection.Choice(group: $0, option: $0.defaultOption) })
        var combinations: [[AVMediaSelection.Choice]] = [[]]
        for group in groups {
            combinations = combinations.flatMap { partial in group.options.map { partial + [AVMediaSelection.Choice(group: group, option: $0)] } }
        }
        return (preferred, combinations.map { AVMediaSelection(asset: self, choices: $0) })
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == AVMediaSelection {
    /// The replacement of the iOS 16-deprecated `preferredMediaSelection`.
    public static var preferredMediaSelection: AVAsyncProperty<Root, AVMediaSelection> {
        .init("preferredMediaSelection") { _ = try $0.describedFile(); return $0.fileMediaSelections().preferred }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVMediaSelection] {
    /// The replacement of the iOS 16-deprecated `allMediaSelections`.
    public static var allMediaSelections: AVAsyncProperty<Root, [AVMediaSelection]> {
        .init("allMediaSelections") { _ = try $0.describedFile(); return $0.fileMediaSelections().all }
    }
}
