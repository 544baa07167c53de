import type { functionalSeleniumScriptEn } from './selenium-script.en';

/** Korean strings of the script screen's Selenium variant; a missing or unknown key is a compile error. */
export const functionalSeleniumScriptKo: Record<keyof typeof functionalSeleniumScriptEn, string> = {
  'functional.selenium.framework': '스크립트 유형',
  'functional.selenium.framework.taurus': 'Taurus (API)',
  'functional.selenium.framework.selenium': 'Selenium (UI)',
  'functional.selenium.sourceText':
    '각 요청은 Chromium에서 URL을 열고 동작을 순서대로 실행합니다. 실행할 수 없는 동작은 실행 전에 줄 번호와 함께 거부됩니다.',
  'functional.selenium.fileHint': 'Selenium 방식 Taurus 스크립트 불러오기 (.yml, .yaml)',
  'functional.selenium.fileLoaded': '{name}에서 스크립트를 불러왔습니다',
  'functional.selenium.fileUnreadable': '{name}을(를) 읽지 못했습니다: {message}',
  'functional.selenium.readSummary':
    '페이지 {pages}개, 단계 {steps}개가 브라우저에서 실행됩니다 · 경고: {warnings}',
  'functional.selenium.unknownTitle': '실행할 수 없는 동작 ({count})',
  'functional.selenium.pagesTitle': '브라우저 단계 ({count}) - 실행 순서',
  'functional.selenium.pagesText':
    '반복마다 한 브라우저에서 이 순서대로 한 번씩 실행됩니다. 동작이 실패하면 스크린샷과 함께 그 페이지가 실패합니다.',
  'functional.selenium.samePage': '이전 단계가 남긴 페이지에서 동작합니다',
  'functional.selenium.stepCount': '동작 {count}개',
  'functional.selenium.noActions': '동작 없음: 페이지를 열고 로드를 측정합니다.',
  'functional.selenium.startFailed': 'UI 기능 테스트를 시작하지 못했습니다: {message}',
  'functional.selenium.helpTitle': 'Selenium 스크립트로 브라우저 단계 작성하기',
  'functional.selenium.helpClick':
    '클릭: clickByID(submit), clickByCSS(.buy), clickByXPath(//button), clickByLinkText(Sign in); doubleClickBy…, submitBy…도 있습니다.',
  'functional.selenium.helpInput':
    '입력: typeByID(email): ada@example.com 은 필드를 비우고 채웁니다. keysByName(q): KEY_ENTER 는 키를 누릅니다.',
  'functional.selenium.helpSelect': '선택: selectByName(country): France 는 보이는 텍스트로 옵션을 고릅니다.',
  'functional.selenium.helpWait':
    '대기: waitForByCSS(.done, Visible): 10s 는 요소가 나타나거나 보이거나 클릭 가능할 때(또는 그 반대)까지 기다립니다. pauseFor(2s)는 정해진 시간 기다립니다.',
  'functional.selenium.helpCheck':
    '확인: assertTitle(Home), assertTextByCSS(h1): Welcome, assertValueByID(email): … 는 찾은 값과 함께 페이지를 실패시킵니다. screenshot(name.png)은 화면을 남깁니다.',
};
