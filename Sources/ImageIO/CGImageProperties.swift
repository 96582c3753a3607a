import CaptureCore
import Foundation

// Image I/O's property keys (CGImageProperties.h, iOS 18 SDK) that capture code reads and
// writes in photo metadata, with Image I/O's string values: `AVCapturePhoto.metadata` is
// keyed by them, so `photo.metadata[kCGImagePropertyExifDictionary as String]` finds the
// "{Exif}" dictionary. They are `CFString`s, as in Apple's Swift (NSString here, which
// bridges with `as String`), and immutable strings, so `nonisolated(unsafe)` is safe.
// `kCGImagePropertyGPSDifferental` keeps Apple's spelling; its value is "Differential".

// MARK: Dictionaries
// The dictionaries of an image's properties, at the top level: `AVCapturePhoto.metadata`
// holds "{Exif}" and "{TIFF}", "{GPS}" with a location, "{MakerApple}" in a Live Photo.

public nonisolated(unsafe) let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
public nonisolated(unsafe) let kCGImagePropertyGIFDictionary: CFString = "{GIF}"
public nonisolated(unsafe) let kCGImagePropertyJFIFDictionary: CFString = "{JFIF}"
public nonisolated(unsafe) let kCGImagePropertyHEIFDictionary: CFString = "{HEIF}"
public nonisolated(unsafe) let kCGImagePropertyPNGDictionary: CFString = "{PNG}"
public nonisolated(unsafe) let kCGImagePropertyExifDictionary: CFString = "{Exif}"
public nonisolated(unsafe) let kCGImagePropertyExifAuxDictionary: CFString = "{ExifAux}"
public nonisolated(unsafe) let kCGImagePropertyIPTCDictionary: CFString = "{IPTC}"
public nonisolated(unsafe) let kCGImagePropertyGPSDictionary: CFString = "{GPS}"
public nonisolated(unsafe) let kCGImagePropertyRawDictionary: CFString = "{Raw}"
public nonisolated(unsafe) let kCGImagePropertyCIFFDictionary: CFString = "{CIFF}"
public nonisolated(unsafe) let kCGImagePropertyMakerCanonDictionary: CFString = "{MakerCanon}"
public nonisolated(unsafe) let kCGImagePropertyMakerNikonDictionary: CFString = "{MakerNikon}"
public nonisolated(unsafe) let kCGImagePropertyMakerMinoltaDictionary: CFString = "{MakerMinolta}"
public nonisolated(unsafe) let kCGImagePropertyMakerFujiDictionary: CFString = "{MakerFuji}"
public nonisolated(unsafe) let kCGImagePropertyMakerOlympusDictionary: CFString = "{MakerOlympus}"
public nonisolated(unsafe) let kCGImagePropertyMakerPentaxDictionary: CFString = "{MakerPentax}"
public nonisolated(unsafe) let kCGImageProperty8BIMDictionary: CFString = "{8BIM}"
public nonisolated(unsafe) let kCGImagePropertyDNGDictionary: CFString = "{DNG}"
public nonisolated(unsafe) let kCGImagePropertyMakerAppleDictionary: CFString = "{MakerApple}"
public nonisolated(unsafe) let kCGImagePropertyWebPDictionary: CFString = "{WebP}"
public nonisolated(unsafe) let kCGImagePropertyTGADictionary: CFString = "{TGA}"
public nonisolated(unsafe) let kCGImagePropertyHEICSDictionary: CFString = "{HEICS}"

// MARK: Image
// Top-level properties of an image.

public nonisolated(unsafe) let kCGImagePropertyFileSize: CFString = "FileSize"
public nonisolated(unsafe) let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
public nonisolated(unsafe) let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
public nonisolated(unsafe) let kCGImagePropertyDPIHeight: CFString = "DPIHeight"
public nonisolated(unsafe) let kCGImagePropertyDPIWidth: CFString = "DPIWidth"
public nonisolated(unsafe) let kCGImagePropertyDepth: CFString = "Depth"
public nonisolated(unsafe) let kCGImagePropertyOrientation: CFString = "Orientation"
public nonisolated(unsafe) let kCGImagePropertyIsFloat: CFString = "IsFloat"
public nonisolated(unsafe) let kCGImagePropertyIsIndexed: CFString = "IsIndexed"
public nonisolated(unsafe) let kCGImagePropertyHasAlpha: CFString = "HasAlpha"
public nonisolated(unsafe) let kCGImagePropertyColorModel: CFString = "ColorModel"
public nonisolated(unsafe) let kCGImagePropertyProfileName: CFString = "ProfileName"
public nonisolated(unsafe) let kCGImagePropertyPrimaryImage: CFString = "PrimaryImage"

// MARK: Color models
// Values of `kCGImagePropertyColorModel`.

public nonisolated(unsafe) let kCGImagePropertyColorModelRGB: CFString = "RGB"
public nonisolated(unsafe) let kCGImagePropertyColorModelGray: CFString = "Gray"
public nonisolated(unsafe) let kCGImagePropertyColorModelCMYK: CFString = "CMYK"
public nonisolated(unsafe) let kCGImagePropertyColorModelLab: CFString = "Lab"

// MARK: TIFF
// Keys of the "{TIFF}" dictionary.

public nonisolated(unsafe) let kCGImagePropertyTIFFCompression: CFString = "Compression"
public nonisolated(unsafe) let kCGImagePropertyTIFFPhotometricInterpretation: CFString = "PhotometricInterpretation"
public nonisolated(unsafe) let kCGImagePropertyTIFFDocumentName: CFString = "DocumentName"
public nonisolated(unsafe) let kCGImagePropertyTIFFImageDescription: CFString = "ImageDescription"
public nonisolated(unsafe) let kCGImagePropertyTIFFMake: CFString = "Make"
public nonisolated(unsafe) let kCGImagePropertyTIFFModel: CFString = "Model"
public nonisolated(unsafe) let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
public nonisolated(unsafe) let kCGImagePropertyTIFFXResolution: CFString = "XResolution"
public nonisolated(unsafe) let kCGImagePropertyTIFFYResolution: CFString = "YResolution"
public nonisolated(unsafe) let kCGImagePropertyTIFFResolutionUnit: CFString = "ResolutionUnit"
public nonisolated(unsafe) let kCGImagePropertyTIFFSoftware: CFString = "Software"
public nonisolated(unsafe) let kCGImagePropertyTIFFTransferFunction: CFString = "TransferFunction"
public nonisolated(unsafe) let kCGImagePropertyTIFFDateTime: CFString = "DateTime"
public nonisolated(unsafe) let kCGImagePropertyTIFFArtist: CFString = "Artist"
public nonisolated(unsafe) let kCGImagePropertyTIFFHostComputer: CFString = "HostComputer"
public nonisolated(unsafe) let kCGImagePropertyTIFFCopyright: CFString = "Copyright"
public nonisolated(unsafe) let kCGImagePropertyTIFFWhitePoint: CFString = "WhitePoint"
public nonisolated(unsafe) let kCGImagePropertyTIFFPrimaryChromaticities: CFString = "PrimaryChromaticities"
public nonisolated(unsafe) let kCGImagePropertyTIFFTileWidth: CFString = "TileWidth"
public nonisolated(unsafe) let kCGImagePropertyTIFFTileLength: CFString = "TileLength"

// MARK: Exif
// Keys of the "{Exif}" dictionary.

public nonisolated(unsafe) let kCGImagePropertyExifExposureTime: CFString = "ExposureTime"
public nonisolated(unsafe) let kCGImagePropertyExifFNumber: CFString = "FNumber"
public nonisolated(unsafe) let kCGImagePropertyExifExposureProgram: CFString = "ExposureProgram"
public nonisolated(unsafe) let kCGImagePropertyExifSpectralSensitivity: CFString = "SpectralSensitivity"
public nonisolated(unsafe) let kCGImagePropertyExifISOSpeedRatings: CFString = "ISOSpeedRatings"
public nonisolated(unsafe) let kCGImagePropertyExifOECF: CFString = "OECF"
public nonisolated(unsafe) let kCGImagePropertyExifSensitivityType: CFString = "SensitivityType"
public nonisolated(unsafe) let kCGImagePropertyExifStandardOutputSensitivity: CFString = "StandardOutputSensitivity"
public nonisolated(unsafe) let kCGImagePropertyExifRecommendedExposureIndex: CFString = "RecommendedExposureIndex"
public nonisolated(unsafe) let kCGImagePropertyExifISOSpeed: CFString = "ISOSpeed"
public nonisolated(unsafe) let kCGImagePropertyExifISOSpeedLatitudeyyy: CFString = "ISOSpeedLatitudeyyy"
public nonisolated(unsafe) let kCGImagePropertyExifISOSpeedLatitudezzz: CFString = "ISOSpeedLatitudezzz"
public nonisolated(unsafe) let kCGImagePropertyExifVersion: CFString = "ExifVersion"
public nonisolated(unsafe) let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
public nonisolated(unsafe) let kCGImagePropertyExifDateTimeDigitized: CFString = "DateTimeDigitized"
public nonisolated(unsafe) let kCGImagePropertyExifOffsetTime: CFString = "OffsetTime"
public nonisolated(unsafe) let kCGImagePropertyExifOffsetTimeOriginal: CFString = "OffsetTimeOriginal"
public nonisolated(unsafe) let kCGImagePropertyExifOffsetTimeDigitized: CFString = "OffsetTimeDigitized"
public nonisolated(unsafe) let kCGImagePropertyExifComponentsConfiguration: CFString = "ComponentsConfiguration"
public nonisolated(unsafe) let kCGImagePropertyExifCompressedBitsPerPixel: CFString = "CompressedBitsPerPixel"
public nonisolated(unsafe) let kCGImagePropertyExifShutterSpeedValue: CFString = "ShutterSpeedValue"
public nonisolated(unsafe) let kCGImagePropertyExifApertureValue: CFString = "ApertureValue"
public nonisolated(unsafe) let kCGImagePropertyExifBrightnessValue: CFString = "BrightnessValue"
public nonisolated(unsafe) let kCGImagePropertyExifExposureBiasValue: CFString = "ExposureBiasValue"
public nonisolated(unsafe) let kCGImagePropertyExifMaxApertureValue: CFString = "MaxApertureValue"
public nonisolated(unsafe) let kCGImagePropertyExifSubjectDistance: CFString = "SubjectDistance"
public nonisolated(unsafe) let kCGImagePropertyExifMeteringMode: CFString = "MeteringMode"
public nonisolated(unsafe) let kCGImagePropertyExifLightSource: CFString = "LightSource"
public nonisolated(unsafe) let kCGImagePropertyExifFlash: CFString = "Flash"
public nonisolated(unsafe) let kCGImagePropertyExifFocalLength: CFString = "FocalLength"
public nonisolated(unsafe) let kCGImagePropertyExifSubjectArea: CFString = "SubjectArea"
public nonisolated(unsafe) let kCGImagePropertyExifMakerNote: CFString = "MakerNote"
public nonisolated(unsafe) let kCGImagePropertyExifUserComment: CFString = "UserComment"
public nonisolated(unsafe) let kCGImagePropertyExifSubsecTime: CFString = "SubsecTime"
public nonisolated(unsafe) let kCGImagePropertyExifSubsecTimeOriginal: CFString = "SubsecTimeOriginal"
public nonisolated(unsafe) let kCGImagePropertyExifSubsecTimeDigitized: CFString = "SubsecTimeDigitized"
public nonisolated(unsafe) let kCGImagePropertyExifFlashPixVersion: CFString = "FlashPixVersion"
public nonisolated(unsafe) let kCGImagePropertyExifColorSpace: CFString = "ColorSpace"
public nonisolated(unsafe) let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
public nonisolated(unsafe) let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
public nonisolated(unsafe) let kCGImagePropertyExifRelatedSoundFile: CFString = "RelatedSoundFile"
public nonisolated(unsafe) let kCGImagePropertyExifFlashEnergy: CFString = "FlashEnergy"
public nonisolated(unsafe) let kCGImagePropertyExifSpatialFrequencyResponse: CFString = "SpatialFrequencyResponse"
public nonisolated(unsafe) let kCGImagePropertyExifFocalPlaneXResolution: CFString = "FocalPlaneXResolution"
public nonisolated(unsafe) let kCGImagePropertyExifFocalPlaneYResolution: CFString = "FocalPlaneYResolution"
public nonisolated(unsafe) let kCGImagePropertyExifFocalPlaneResolutionUnit: CFString = "FocalPlaneResolutionUnit"
public nonisolated(unsafe) let kCGImagePropertyExifSubjectLocation: CFString = "SubjectLocation"
public nonisolated(unsafe) let kCGImagePropertyExifExposureIndex: CFString = "ExposureIndex"
public nonisolated(unsafe) let kCGImagePropertyExifSensingMethod: CFString = "SensingMethod"
public nonisolated(unsafe) let kCGImagePropertyExifFileSource: CFString = "FileSource"
public nonisolated(unsafe) let kCGImagePropertyExifSceneType: CFString = "SceneType"
public nonisolated(unsafe) let kCGImagePropertyExifCFAPattern: CFString = "CFAPattern"
public nonisolated(unsafe) let kCGImagePropertyExifCustomRendered: CFString = "CustomRendered"
public nonisolated(unsafe) let kCGImagePropertyExifExposureMode: CFString = "ExposureMode"
public nonisolated(unsafe) let kCGImagePropertyExifWhiteBalance: CFString = "WhiteBalance"
public nonisolated(unsafe) let kCGImagePropertyExifDigitalZoomRatio: CFString = "DigitalZoomRatio"
public nonisolated(unsafe) let kCGImagePropertyExifFocalLenIn35mmFilm: CFString = "FocalLenIn35mmFilm"
public nonisolated(unsafe) let kCGImagePropertyExifSceneCaptureType: CFString = "SceneCaptureType"
public nonisolated(unsafe) let kCGImagePropertyExifGainControl: CFString = "GainControl"
public nonisolated(unsafe) let kCGImagePropertyExifContrast: CFString = "Contrast"
public nonisolated(unsafe) let kCGImagePropertyExifSaturation: CFString = "Saturation"
public nonisolated(unsafe) let kCGImagePropertyExifSharpness: CFString = "Sharpness"
public nonisolated(unsafe) let kCGImagePropertyExifDeviceSettingDescription: CFString = "DeviceSettingDescription"
public nonisolated(unsafe) let kCGImagePropertyExifSubjectDistRange: CFString = "SubjectDistRange"
public nonisolated(unsafe) let kCGImagePropertyExifImageUniqueID: CFString = "ImageUniqueID"
public nonisolated(unsafe) let kCGImagePropertyExifCameraOwnerName: CFString = "CameraOwnerName"
public nonisolated(unsafe) let kCGImagePropertyExifBodySerialNumber: CFString = "BodySerialNumber"
public nonisolated(unsafe) let kCGImagePropertyExifLensSpecification: CFString = "LensSpecification"
public nonisolated(unsafe) let kCGImagePropertyExifLensMake: CFString = "LensMake"
public nonisolated(unsafe) let kCGImagePropertyExifLensModel: CFString = "LensModel"
public nonisolated(unsafe) let kCGImagePropertyExifLensSerialNumber: CFString = "LensSerialNumber"
public nonisolated(unsafe) let kCGImagePropertyExifGamma: CFString = "Gamma"

// MARK: GPS
// Keys of the "{GPS}" dictionary: latitude and longitude are unsigned degrees, their Ref
// keys "N"/"S" and "E"/"W".

public nonisolated(unsafe) let kCGImagePropertyGPSVersion: CFString = "GPSVersion"
public nonisolated(unsafe) let kCGImagePropertyGPSLatitudeRef: CFString = "LatitudeRef"
public nonisolated(unsafe) let kCGImagePropertyGPSLatitude: CFString = "Latitude"
public nonisolated(unsafe) let kCGImagePropertyGPSLongitudeRef: CFString = "LongitudeRef"
public nonisolated(unsafe) let kCGImagePropertyGPSLongitude: CFString = "Longitude"
public nonisolated(unsafe) let kCGImagePropertyGPSAltitudeRef: CFString = "AltitudeRef"
public nonisolated(unsafe) let kCGImagePropertyGPSAltitude: CFString = "Altitude"
public nonisolated(unsafe) let kCGImagePropertyGPSTimeStamp: CFString = "TimeStamp"
public nonisolated(unsafe) let kCGImagePropertyGPSSatellites: CFString = "Satellites"
public nonisolated(unsafe) let kCGImagePropertyGPSStatus: CFString = "Status"
public nonisolated(unsafe) let kCGImagePropertyGPSMeasureMode: CFString = "MeasureMode"
public nonisolated(unsafe) let kCGImagePropertyGPSDOP: CFString = "DOP"
public nonisolated(unsafe) let kCGImagePropertyGPSSpeedRef: CFString = "SpeedRef"
public nonisolated(unsafe) let kCGImagePropertyGPSSpeed: CFString = "Speed"
public nonisolated(unsafe) let kCGImagePropertyGPSTrackRef: CFString = "TrackRef"
public nonisolated(unsafe) let kCGImagePropertyGPSTrack: CFString = "Track"
public nonisolated(unsafe) let kCGImagePropertyGPSImgDirectionRef: CFString = "ImgDirectionRef"
public nonisolated(unsafe) let kCGImagePropertyGPSImgDirection: CFString = "ImgDirection"
public nonisolated(unsafe) let kCGImagePropertyGPSMapDatum: CFString = "MapDatum"
public nonisolated(unsafe) let kCGImagePropertyGPSDestLatitudeRef: CFString = "DestLatitudeRef"
public nonisolated(unsafe) let kCGImagePropertyGPSDestLatitude: CFString = "DestLatitude"
public nonisolated(unsafe) let kCGImagePropertyGPSDestLongitudeRef: CFString = "DestLongitudeRef"
public nonisolated(unsafe) let kCGImagePropertyGPSDestLongitude: CFString = "DestLongitude"
public nonisolated(unsafe) let kCGImagePropertyGPSDestBearingRef: CFString = "DestBearingRef"
public nonisolated(unsafe) let kCGImagePropertyGPSDestBearing: CFString = "DestBearing"
public nonisolated(unsafe) let kCGImagePropertyGPSDestDistanceRef: CFString = "DestDistanceRef"
public nonisolated(unsafe) let kCGImagePropertyGPSDestDistance: CFString = "DestDistance"
public nonisolated(unsafe) let kCGImagePropertyGPSProcessingMethod: CFString = "ProcessingMethod"
public nonisolated(unsafe) let kCGImagePropertyGPSAreaInformation: CFString = "AreaInformation"
public nonisolated(unsafe) let kCGImagePropertyGPSDateStamp: CFString = "DateStamp"
public nonisolated(unsafe) let kCGImagePropertyGPSDifferental: CFString = "Differential"
public nonisolated(unsafe) let kCGImagePropertyGPSHPositioningError: CFString = "HPositioningError"

// MARK: - Auxiliary data (CGImageSource.h): the dictionaries AVDepthData reads and writes.

/// The auxiliary image's bytes (`Data`).
public nonisolated(unsafe) let kCGImageAuxiliaryDataInfoData: CFString = NSString(string: ImageAuxiliaryData.infoData)
/// The auxiliary image's `Width`, `Height`, `BytesPerRow` and `PixelFormat`.
public nonisolated(unsafe) let kCGImageAuxiliaryDataInfoDataDescription: CFString = NSString(string: ImageAuxiliaryData.infoDataDescription)
/// The auxiliary image's XMP metadata.
public nonisolated(unsafe) let kCGImageAuxiliaryDataInfoMetadata: CFString = NSString(string: ImageAuxiliaryData.infoMetadata)
/// A depth map (metres).
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeDepth: CFString = NSString(string: ImageAuxiliaryData.typeDepth)
/// A disparity map (1/metres).
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeDisparity: CFString = NSString(string: ImageAuxiliaryData.typeDisparity)
/// A portrait effects matte.
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypePortraitEffectsMatte: CFString = NSString(string: ImageAuxiliaryData.typePortraitEffectsMatte)
/// A semantic segmentation matte of skin.
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte: CFString = NSString(
    string: ImageAuxiliaryData.typeSemanticSegmentationSkinMatte)
/// A semantic segmentation matte of hair.
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte: CFString = NSString(
    string: ImageAuxiliaryData.typeSemanticSegmentationHairMatte)
/// A semantic segmentation matte of teeth.
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte: CFString = NSString(
    string: ImageAuxiliaryData.typeSemanticSegmentationTeethMatte)
/// A semantic segmentation matte of glasses.
public nonisolated(unsafe) let kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte: CFString = NSString(
    string: ImageAuxiliaryData.typeSemanticSegmentationGlassesMatte)
