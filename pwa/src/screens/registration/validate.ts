export interface RegistrationForm {
  login: string;
  firstName: string;
  lastName: string;
  password: string;
  repeatPassword: string;
}

/** spec 01 §5: all fields filled ('Заполните все поля'), passwords equal ('Пароли не совпадают'). */
export function registrationError(form: RegistrationForm): string | null {
  if (!form.login.trim() || !form.firstName.trim() || !form.lastName.trim() || !form.password) return 'Заполните все поля';
  if (form.password !== form.repeatPassword) return 'Пароли не совпадают';
  return null;
}
