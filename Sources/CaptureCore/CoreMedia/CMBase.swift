/// A count of items, as CMBase.h's `CMItemCount` (`CFIndex`).
public typealias CMItemCount = Int
/// An index of an item, as CMBase.h's `CMItemIndex`.
public typealias CMItemIndex = Int
/// A track's persistent ID, as CMBase.h's `CMPersistentTrackID`.
public typealias CMPersistentTrackID = Int32
/// No track. The corresponding C constant is `kCMPersistentTrackID_Invalid`.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0

/// No error, as MacTypes.h's `noErr`.
public let noErr: OSStatus = 0
