import Foundation

/// A control that selects one of a number of mutually exclusive values by zero-based index
/// (iOS 18).
///
/// The rules are Apple's: the number of indexes (or of titles) must be greater than 0, else
/// the initialiser raises `NSInvalidArgumentException`; `selectedIndex` starts at 0 and may
/// only be set to 0 ..< `numberOfIndexes`, else it raises `NSInvalidArgumentException`
/// (`setSelectedIndex(_:)` is the checked form).
///
/// As on iOS, setting `selectedIndex` from code does not call the action: only a user's pick
/// through the Camera Control does, which on Linux is a control surface (`CaptureWebServer`'s
/// page) calling `selectIndexAsUser(_:)`.
open class AVCaptureIndexPicker: AVCaptureControl, @unchecked Sendable {
    struct State {
        var selectedIndex = 0
        var accessibilityIdentifier: String?
        var action: ControlAction<Int>?
    }

    private let state = Mutex(State())

    private let storedLocalizedTitle: String
    /// A localized title that describes the picker's action.
    open var localizedTitle: String { storedLocalizedTitle }
    private let storedSymbolName: String
    /// The name of the SF Symbol that represents the picker.
    open var symbolName: String { storedSymbolName }
    private let storedNumberOfIndexes: Int
    /// The number of indexes to pick between.
    open var numberOfIndexes: Int { storedNumberOfIndexes }
    private let storedLocalizedIndexTitles: [String]
    /// The title of each index (empty for a picker made with `numberOfIndexes` alone).
    open var localizedIndexTitles: [String] { storedLocalizedIndexTitles }

    /// A picker between `numberOfIndexes` untitled values. Raises
    /// `NSInvalidArgumentException` unless `numberOfIndexes > 0`.
    public convenience init(_ localizedTitle: String, symbolName: String, numberOfIndexes: Int) {
        Self.require(numberOfIndexes > 0, "initWithLocalizedTitle:symbolName:numberOfIndexes:",
            "numberOfIndexes must be greater than 0")
        self.init(localizedTitle, symbolName: symbolName, count: numberOfIndexes, titles: [])
    }

    /// A picker between `numberOfIndexes` values titled by `localizedTitleTransform`
    /// (called once per index, here and now). Raises `NSInvalidArgumentException` unless
    /// `numberOfIndexes > 0`.
    public convenience init(_ localizedTitle: String, symbolName: String, numberOfIndexes: Int, localizedTitleTransform: (Int) -> String) {
        Self.require(numberOfIndexes > 0, "initWithLocalizedTitle:symbolName:numberOfIndexes:localizedTitleTransform:",
            "numberOfIndexes must be greater than 0")
        self.init(localizedTitle, symbolName: symbolName, count: numberOfIndexes,
            titles: (0..<numberOfIndexes).map(localizedTitleTransform))
    }

    /// A picker between the given titles. Raises `NSInvalidArgumentException` if
    /// `localizedIndexTitles` is empty.
    public convenience init(_ localizedTitle: String, symbolName: String, localizedIndexTitles: [String]) {
        Self.require(!localizedIndexTitles.isEmpty, "initWithLocalizedTitle:symbolName:localizedIndexTitles:",
            "localizedIndexTitles must not be empty")
        self.init(localizedTitle, symbolName: symbolName, count: localizedIndexTitles.count, titles: localizedIndexTitles)
    }

    init(_ localizedTitle: String, symbolName: String, count: Int, titles: [String]) {
        self.storedLocalizedTitle = localizedTitle
        self.storedSymbolName = symbolName
        storedNumberOfIndexes = count
        storedLocalizedIndexTitles = titles
        super.init(concreteControl: ())
    }

    private static func require(_ condition: Bool, _ selector: String, _ text: String) {
        if !condition {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureIndexPicker", selector, text)).raise()
        }
    }

    /// The selected index (default 0). Setting one outside 0 ..< `numberOfIndexes` raises
    /// `NSInvalidArgumentException`.
    open var selectedIndex: Int {
        get { state.withLock { $0.selectedIndex } }
        set { enforce { try setSelectedIndex(newValue) } }
    }

    /// The checked form of setting `selectedIndex` (Linux addition): throws instead of ending
    /// the process.
    public func setSelectedIndex(_ index: Int) throws(AVCaptureException) {
        guard (0..<numberOfIndexes).contains(index) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureIndexPicker", "setSelectedIndex:",
                    "index \(index) is outside 0..<\(numberOfIndexes)"))
        }
        state.withLock { $0.selectedIndex = index }
    }

    /// A string that identifies the picker.
    open var accessibilityIdentifier: String? {
        get { state.withLock { $0.accessibilityIdentifier } }
        set { state.withLock { $0.accessibilityIdentifier = newValue } }
    }

    /// Sets the action the system calls, on `actionQueue`, when the user picks an index
    /// through the Camera Control (on Linux: a control surface, see `selectIndexAsUser(_:)`).
    open func setActionQueue(_ actionQueue: DispatchQueue, action: @escaping (Int) -> Void) {
        state.withLock { $0.action = ControlAction(queue: actionQueue, action: action) }
    }

    /// Apple's condition for adding a picker: an action and queue have been set.
    override var isReadyToAdd: Bool { state.withLock { $0.action != nil } }

    /// A user's pick from a control surface, as with the Camera Control (Linux addition):
    /// `selectedIndex` becomes `index` and the action is called with it on its queue.
    ///
    /// Throws `NSGenericException` unless the picker is enabled and in a session whose
    /// controls are active, and `NSInvalidArgumentException` for an index outside
    /// 0 ..< `numberOfIndexes`.
    public func selectIndexAsUser(_ index: Int) throws(AVCaptureException) {
        try checkUserMayChange("selectIndexAsUser:")
        try setSelectedIndex(index)
        state.withLock { $0.action }?.call(index)
    }
}
