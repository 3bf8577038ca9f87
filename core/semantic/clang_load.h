/* clang_load: libclang, opened at its first use rather than when culprit
 * starts. Linking it pulls LLVM in, whose ~560,000 relocations the dynamic
 * loader resolves before main on every start (a third of the workbench's
 * start-up), though only the C source reader (csrc) and the instrumenter
 * (instr) call it. A file that calls clang_* includes this header instead of
 * <clang-c/Index.h>: each function name then reads an entry of a table that
 * clang_load fills with dlsym. A function newly called goes in
 * CLANG_LOAD_FUNCS and gets its #define below. */
#ifndef CULPRIT_CLANG_LOAD_H
#define CULPRIT_CLANG_LOAD_H

#include <clang-c/Index.h>

#include "core/util.h"

#define CLANG_LOAD_FUNCS(X) \
	X(clang_Cursor_Evaluate) \
	X(clang_Cursor_getStorageClass) \
	X(clang_Cursor_getVarDeclInitializer) \
	X(clang_Cursor_isBitField) \
	X(clang_Cursor_isNull) \
	X(clang_EvalResult_dispose) \
	X(clang_EvalResult_getAsDouble) \
	X(clang_EvalResult_getAsLongLong) \
	X(clang_EvalResult_getAsUnsigned) \
	X(clang_EvalResult_getKind) \
	X(clang_EvalResult_isUnsignedInt) \
	X(clang_File_isEqual) \
	X(clang_Location_isInSystemHeader) \
	X(clang_Type_getSizeOf) \
	X(clang_createIndex) \
	X(clang_disposeDiagnostic) \
	X(clang_disposeIndex) \
	X(clang_disposeString) \
	X(clang_disposeTokens) \
	X(clang_disposeTranslationUnit) \
	X(clang_equalCursors) \
	X(clang_formatDiagnostic) \
	X(clang_getArraySize) \
	X(clang_getCString) \
	X(clang_getCanonicalType) \
	X(clang_getCursorExtent) \
	X(clang_getCursorKind) \
	X(clang_getCursorLocation) \
	X(clang_getCursorReferenced) \
	X(clang_getCursorSpelling) \
	X(clang_getCursorType) \
	X(clang_getDiagnostic) \
	X(clang_getDiagnosticSeverity) \
	X(clang_getDiagnosticSpelling) \
	X(clang_getEnumConstantDeclValue) \
	X(clang_getEnumDeclIntegerType) \
	X(clang_getFile) \
	X(clang_getFileContents) \
	X(clang_getFileLocation) \
	X(clang_getLocationForOffset) \
	X(clang_getNullCursor) \
	X(clang_getNumDiagnostics) \
	X(clang_getRange) \
	X(clang_getRangeEnd) \
	X(clang_getRangeStart) \
	X(clang_getResultType) \
	X(clang_getSpellingLocation) \
	X(clang_getTokenExtent) \
	X(clang_getTokenKind) \
	X(clang_getTokenLocation) \
	X(clang_getTokenSpelling) \
	X(clang_getTranslationUnitCursor) \
	X(clang_getTypeDeclaration) \
	X(clang_getTypeSpelling) \
	X(clang_isCursorDefinition) \
	X(clang_isExpression) \
	X(clang_isStatement) \
	X(clang_parseTranslationUnit2) \
	X(clang_tokenize) \
	X(clang_visitChildren)

struct clang_api {
#define CLANG_LOAD_FIELD(f) __typeof__(f) *f;
	CLANG_LOAD_FUNCS(CLANG_LOAD_FIELD)
#undef CLANG_LOAD_FIELD
};
extern struct clang_api clang_api;

/* Open libclang and fill clang_api, once per process (thread-safe; a failure
 * is remembered). The library is $CULPRIT_LIBCLANG when set, else the one
 * culprit was built against. 0, or -1 with e set to a one-line reason. */
int clang_load(struct cerr *e);

#ifndef CLANG_LOAD_IMPL
#define clang_Cursor_Evaluate (clang_api.clang_Cursor_Evaluate)
#define clang_Cursor_getStorageClass (clang_api.clang_Cursor_getStorageClass)
#define clang_Cursor_getVarDeclInitializer (clang_api.clang_Cursor_getVarDeclInitializer)
#define clang_Cursor_isBitField (clang_api.clang_Cursor_isBitField)
#define clang_Cursor_isNull (clang_api.clang_Cursor_isNull)
#define clang_EvalResult_dispose (clang_api.clang_EvalResult_dispose)
#define clang_EvalResult_getAsDouble (clang_api.clang_EvalResult_getAsDouble)
#define clang_EvalResult_getAsLongLong (clang_api.clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getAsUnsigned (clang_api.clang_EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind (clang_api.clang_EvalResult_getKind)
#define clang_EvalResult_isUnsignedInt (clang_api.clang_EvalResult_isUnsignedInt)
#define clang_File_isEqual (clang_api.clang_File_isEqual)
#define clang_Location_isInSystemHeader (clang_api.clang_Location_isInSystemHeader)
#define clang_Type_getSizeOf (clang_api.clang_Type_getSizeOf)
#define clang_createIndex (clang_api.clang_createIndex)
#define clang_disposeDiagnostic (clang_api.clang_disposeDiagnostic)
#define clang_disposeIndex (clang_api.clang_disposeIndex)
#define clang_disposeString (clang_api.clang_disposeString)
#define clang_disposeTokens (clang_api.clang_disposeTokens)
#define clang_disposeTranslationUnit (clang_api.clang_disposeTranslationUnit)
#define clang_equalCursors (clang_api.clang_equalCursors)
#define clang_formatDiagnostic (clang_api.clang_formatDiagnostic)
#define clang_getArraySize (clang_api.clang_getArraySize)
#define clang_getCString (clang_api.clang_getCString)
#define clang_getCanonicalType (clang_api.clang_getCanonicalType)
#define clang_getCursorExtent (clang_api.clang_getCursorExtent)
#define clang_getCursorKind (clang_api.clang_getCursorKind)
#define clang_getCursorLocation (clang_api.clang_getCursorLocation)
#define clang_getCursorReferenced (clang_api.clang_getCursorReferenced)
#define clang_getCursorSpelling (clang_api.clang_getCursorSpelling)
#define clang_getCursorType (clang_api.clang_getCursorType)
#define clang_getDiagnostic (clang_api.clang_getDiagnostic)
#define clang_getDiagnosticSeverity (clang_api.clang_getDiagnosticSeverity)
#define clang_getDiagnosticSpelling (clang_api.clang_getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue (clang_api.clang_getEnumConstantDeclValue)
#define clang_getEnumDeclIntegerType (clang_api.clang_getEnumDeclIntegerType)
#define clang_getFile (clang_api.clang_getFile)
#define clang_getFileContents (clang_api.clang_getFileContents)
#define clang_getFileLocation (clang_api.clang_getFileLocation)
#define clang_getLocationForOffset (clang_api.clang_getLocationForOffset)
#define clang_getNullCursor (clang_api.clang_getNullCursor)
#define clang_getNumDiagnostics (clang_api.clang_getNumDiagnostics)
#define clang_getRange (clang_api.clang_getRange)
#define clang_getRangeEnd (clang_api.clang_getRangeEnd)
#define clang_getRangeStart (clang_api.clang_getRangeStart)
#define clang_getResultType (clang_api.clang_getResultType)
#define clang_getSpellingLocation (clang_api.clang_getSpellingLocation)
#define clang_getTokenExtent (clang_api.clang_getTokenExtent)
#define clang_getTokenKind (clang_api.clang_getTokenKind)
#define clang_getTokenLocation (clang_api.clang_getTokenLocation)
#define clang_getTokenSpelling (clang_api.clang_getTokenSpelling)
#define clang_getTranslationUnitCursor (clang_api.clang_getTranslationUnitCursor)
#define clang_getTypeDeclaration (clang_api.clang_getTypeDeclaration)
#define clang_getTypeSpelling (clang_api.clang_getTypeSpelling)
#define clang_isCursorDefinition (clang_api.clang_isCursorDefinition)
#define clang_isExpression (clang_api.clang_isExpression)
#define clang_isStatement (clang_api.clang_isStatement)
#define clang_parseTranslationUnit2 (clang_api.clang_parseTranslationUnit2)
#define clang_tokenize (clang_api.clang_tokenize)
#define clang_visitChildren (clang_api.clang_visitChildren)
#endif

#endif
