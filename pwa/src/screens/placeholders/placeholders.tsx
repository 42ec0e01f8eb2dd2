import { ScreenPlaceholder } from '../../ui/Placeholder';

/** Screens that later capabilities build; each says what it will hold. */
export const placeholders = {
  calculator: () => (
    <ScreenPlaceholder
      title="Калькулятор производительности"
      will={[
        'Тип производства и признак средней операции короче 10 секунд',
        'Данные компании, расчёт экономии и график',
        'Панели администратора: значения по умолчанию, оборудование, лицензия',
      ]}
    />
  ),
};
