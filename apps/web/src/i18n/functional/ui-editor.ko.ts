import type { functionalUiEditorEn } from './ui-editor.en';

/** Korean strings of the UI Functional Test screen; a missing or unknown key is a compile error. */
export const functionalUiEditorKo: Record<keyof typeof functionalUiEditorEn, string> = {
  'functional.ui.title': 'UI 기능 테스트',
  'functional.ui.subtitle':
    '웹 앱의 페이지와 각 페이지에 보여야 할 내용을 나열하세요. 실제 브라우저에서 순서대로 열리고, 단계마다 시간을 재고 스크린샷을 남깁니다.',
  'functional.ui.loading': 'UI 테스트 구성을 불러오는 중...',
  'functional.ui.loadFailed': 'UI 테스트 구성을 불러오지 못했습니다: {message}',
  'functional.ui.configText': '페이지를 몇 번 열지, 최대 얼마 동안 실행할지 정합니다.',
  'functional.ui.testNamePlaceholder': '예: 쇼핑몰 결제 페이지',

  'functional.ui.testsTitle': 'UI 테스트',
  'functional.ui.testsText':
    '한 브라우저 탭에서 이 순서대로 열립니다. 카드의 손잡이를 끌거나 화살표로 순서를 바꾸세요.',
  'functional.ui.addTest': 'UI 테스트 추가',
  'functional.ui.noTests': '구성된 UI 테스트가 없습니다',
  'functional.ui.noTestsText': 'UI 테스트를 추가하세요: 열 페이지와 그 페이지에 보여야 할 내용입니다.',

  'functional.ui.testLabel': 'UI 테스트 {number}',
  'functional.ui.unnamedTest': '이름 없는 UI 테스트',
  'functional.ui.name': '이름',
  'functional.ui.namePlaceholder': '예: 장바구니 페이지',
  'functional.ui.url': 'URL',
  'functional.ui.urlPlaceholder': 'https://shop.example.com/cart',
  'functional.ui.method': '메서드',
  'functional.ui.dragHandle': 'UI 테스트 {number}을(를) 끌어서 순서 바꾸기',
  'functional.ui.moveUp': 'UI 테스트 위로 이동',
  'functional.ui.moveDown': 'UI 테스트 아래로 이동',
  'functional.ui.remove': 'UI 테스트 삭제',
  'functional.ui.confirmRemove': 'UI 테스트 {number} ({name})와 검증을 삭제할까요?',

  'functional.ui.rulesTitle': '검증',
  'functional.ui.rulesText': '활성화된 검증은 페이지가 로드된 뒤 확인하며, 모두 통과해야 합니다.',
  'functional.ui.noRules': '검증 없음: 페이지가 2xx 또는 3xx 상태로 응답하면 통과합니다.',
  'functional.ui.rt.contains_text': '텍스트 포함',
  'functional.ui.rt.element_exists': '요소 존재',
  'functional.ui.rt.page_title': '페이지 제목',
  'functional.ui.rh.contains_text': '페이지에 보여야 할 텍스트, 예: Welcome back',
  'functional.ui.rh.element_exists':
    '페이지에 있어야 할 CSS 선택자 또는 XPath, 예: #checkout, .cart button 또는 //h1[text()="Cart"]',
  'functional.ui.rh.page_title': '페이지의 정확한 제목, 예: Cart – Shop',
  'functional.ui.rp.contains_text': '텍스트, 예: Welcome back',
  'functional.ui.rp.element_exists': 'CSS 또는 XPath 선택자, 예: #checkout',
  'functional.ui.rp.page_title': '정확한 제목, 예: Cart – Shop',

  'functional.ui.start': 'UI 테스트 시작',
  'functional.ui.needsTest': '먼저 UI 테스트를 추가하세요',
  'functional.ui.startFailed': 'UI 기능 테스트를 시작하지 못했습니다: {message}',
  'functional.ui.problemAt': 'UI 테스트 #{number}: {message}',

  'functional.error.uiTestsRequired': 'UI 테스트를 하나 이상 구성해야 합니다',
  'functional.error.uiTestNameRequired': 'UI 테스트 #{number} 이름은 필수입니다',
  'functional.error.uiTestUrlRequired': 'UI 테스트 #{number} URL은 필수입니다',
};
