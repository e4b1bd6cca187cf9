#ifndef HEALTHLOG_CLIBXML2_SHIM_H
#define HEALTHLOG_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h includes the system's <unicode/ucnv.h>,
   whose types clash with the copy of ICU that Foundation bundles in any Swift module that
   imports both. Only the tail of xmlCharEncodingHandler depends on it, a struct healthlog
   never touches (it uses pointers to the reader alone), so leave ICU out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
