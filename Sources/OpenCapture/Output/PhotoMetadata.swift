/// Image I/O's top-level property keys (CGImageProperties.h): the keys
/// `AVCapturePhotoSettings.metadata` accepts. Of what they hold, the photo's file gets the
/// fields of "Orientation", "{TIFF}" (Make, Model, Software, DateTime, ImageDescription,
/// Artist, Copyright), "{Exif}" (the exposure fields, DateTimeOriginal, UserComment,
/// LensMake, LensModel ...) and "{GPS}"; the other dictionaries ("{IPTC}", "{JFIF}" ...)
/// are accepted as on iOS but not written.
enum PhotoMetadata {
    static let topLevelKeys: Set<String> = [
        // Dictionaries.
        "{TIFF}", "{GIF}", "{JFIF}", "{HEICS}", "{Exif}", "{PNG}", "{IPTC}", "{GPS}", "{Raw}", "{CIFF}", "{MakerCanon}",
        "{MakerNikon}", "{MakerMinolta}", "{MakerFuji}", "{MakerOlympus}", "{MakerPentax}", "{8BIM}", "{DNG}", "{ExifAux}",
        "{OpenEXR}", "{MakerApple}", "{FileContents}", "{WebP}", "{TGA}", "{AVIS}", "{HEIF}",
        // Single properties.
        "FileSize", "PixelHeight", "PixelWidth", "DPIHeight", "DPIWidth", "Depth", "Orientation", "IsFloat", "IsIndexed",
        "HasAlpha", "ColorModel", "ProfileName", "PrimaryImage", "ImageCount", "Images", "ThumbnailImages", "Width", "Height",
        "BytesPerRow", "NamedColorSpace", "PixelFormat", "ImageIndex", "AuxiliaryData", "AuxiliaryDataType", "GroupIndex",
        "Groups",
    ]
}
