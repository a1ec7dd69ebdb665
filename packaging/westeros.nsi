; The Windows installer of Westeros (issue 37 point 5): a per-user install, no administrator rights,
; of the PyInstaller folder build (dist\westeros), with Start-menu and desktop shortcuts and an
; uninstaller registered for the current user. The uninstaller keeps the saved games (the user data
; folder %LOCALAPPDATA%\westeros\westeros, platformdirs' user_data_dir) unless the person ticks
; "Saved games and settings" on its components page, or passes /REMOVEDATA with /S.
;
;   makensis -WX -DSOURCE=dist\westeros -DVERSION=0.1.0 -DOUTFILE=dist\westeros-0.1.0-setup.exe \
;       packaging/westeros.nsi
;
; packaging/build-installer-wine.sh builds it and smoke-runs install and uninstall under Wine.
; English and Simplified Chinese: the installer follows the Windows display language.

Unicode true
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!ifndef SOURCE
  !error "SOURCE (the folder build, e.g. dist\westeros) is not defined"
!endif
!ifndef VERSION
  !error "VERSION (e.g. 0.1.0) is not defined"
!endif
!ifndef OUTFILE
  !define OUTFILE "westeros-${VERSION}-setup.exe"
!endif

!define APP "Westeros"
!define EXE "westeros.exe"
!define UNINSTALLER "uninstall.exe"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APP}"
; platformdirs.user_data_dir("westeros") on Windows: <author>\<app> under LOCALAPPDATA.
!define DATA_PARENT "$LOCALAPPDATA\westeros"
!define DATA_DIR "${DATA_PARENT}\westeros"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"

Name "${APP}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "${APP} ${VERSION}"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=0 "ProductName" "${APP}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${APP} installer"
VIAddVersionKey /LANG=0 "LegalCopyright" "Westeros contributors"

!define MUI_ICON "westeros.ico"
!define MUI_UNICON "westeros.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_UNCOMPONENTSPAGE_NODESC

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString SEC_PROGRAM ${LANG_ENGLISH} "Westeros (the program and its shortcuts)"
LangString SEC_PROGRAM ${LANG_SIMPCHINESE} "维斯特洛（程序及其快捷方式）"
LangString SEC_DATA ${LANG_ENGLISH} "Saved games and settings"
LangString SEC_DATA ${LANG_SIMPCHINESE} "存档与设置"

Section "-Program"
  SetShellVarContext current
  ; A new version replaces the old bundle as a whole: no stale module may stay behind.
  RMDir /r "$INSTDIR\_internal"
  SetOutPath "$INSTDIR"
  File /r "${SOURCE}/*.*"
  WriteUninstaller "$INSTDIR\${UNINSTALLER}"
  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "Westeros contributors"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${EXE}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\${UNINSTALLER}"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\${UNINSTALLER}" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Section "un.$(SEC_PROGRAM)" UN_PROGRAM
  SectionIn RO
  SetShellVarContext current
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$DESKTOP\${APP}.lnk"
  ; Only what the installer put there: never the whole of a folder the person may have chosen.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\${UNINSTALLER}"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
SectionEnd

Section /o "un.$(SEC_DATA)" UN_DATA
  RMDir /r "${DATA_DIR}"
  RMDir "${DATA_PARENT}"
SectionEnd

Function un.onInit
  ; /REMOVEDATA (for /S, where no components page is shown) removes the saved games too.
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/REMOVEDATA" $1
  ${IfNot} ${Errors}
    SectionSetFlags ${UN_DATA} ${SF_SELECTED}
  ${EndIf}
FunctionEnd
