#if !canImport(Darwin)
// Code written for HealthKit imports only HealthKit and still uses Foundation's types
// (Date, NSPredicate, NSSortDescriptor, DateComponents), as on Apple platforms.
@_exported public import Foundation
#endif
